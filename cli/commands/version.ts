import { handle, type Command } from '../context.js';

/** kaas version */
export const version: Command = {
  command: 'version',
  describe: "print kaas's version and commit and the versions of what it deploys and needs",
  builder: (y) =>
    y
      .example('kaas version', 'kaas, Cluster API/CAPO, ingress-nginx, Envoy Gateway, the CNIs …')
      .example('kaas version -o json', 'the same for scripts'),
  handler: handle(async () => {
    const { versionReport, versionText } = await import('../../lib/version/report.js');
    const report = versionReport();
    return { data: report, text: versionText(report) };
  }),
};
