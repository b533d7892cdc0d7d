import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryLogger } from '../../../lib/log.js';
import { importScs } from '../../../lib/import/import.js';
import { scsProviderWarning } from '../../../lib/import/providers.js';
import { readTfvars } from '../../../lib/import/tfvars.js';
import { ROOT, tempDir } from '../../support/cli.js';

const SCS = path.join(ROOT, 'test', 'fixtures', 'scs');
const warn = (text: string) => scsProviderWarning(readTfvars(text, 'env.tfvars').raws);

describe('settings import warns when the SCS files show providers older than kaas supports (issue 32 §3)', () => {
  it.each<[string, string, RegExp | undefined]>([
    ['SCS defaults (1.6.3 / 0.9.0): every step, ORC before CAPO v0.12', 'clusterapi_version = "1.6.3"\ncapi_openstack_version = "0.9.0"\n',
      /^the SCS files show Cluster API 1\.6\.3 \(clusterapi_version, env\.tfvars:1\) and CAPO 0\.9\.0 \(capi_openstack_version, env\.tfvars:2\), older than kaas supports .*\(1\) Cluster API to v1\.9\.x and CAPO to v0\.11\.x: .*\(2\) install ORC v2\.6\.0 .*\(3\) Cluster API to v1\.12\.x and CAPO to v0\.14\.7: .*\(4\) Cluster API to v1\.14\.2: .*docs\/guides\/management-cluster-versions\.md$/],
    ['CAPI 1.8 / CAPO 0.11', 'clusterapi_version = "1.8.5"\ncapi_openstack_version = "0.11.3"\n', /\(1\) Cluster API to v1\.9\.x: .*\(2\) install ORC/],
    ['only clusterapi_version, old', 'clusterapi_version = "1.7.4"\n', /^the SCS files show Cluster API 1\.7\.4 \(clusterapi_version, env\.tfvars:1\), older/],
    ['supported versions: no warning', 'clusterapi_version = "1.13.6"\ncapi_openstack_version = "0.14.7"\n', undefined],
    ['placeholders of environment-default.tfvars: no warning', 'clusterapi_version = "<1.x.y>"\ncapi_openstack_version = "<0.x.y>"\n', undefined],
    ['no provider versions: no warning', 'worker_count = 3\n', undefined],
  ])('%s', (_n, text, want) => {
    const w = warn(text);
    if (want) expect(w).toMatch(want);
    else expect(w).toBeUndefined();
  });

  it('importScs says it on the logger and keeps it in the report', async () => {
    const dir = tempDir('kaas-import-providers-');
    const tfvars = path.join(dir, 'environment-old.tfvars');
    writeFileSync(tfvars, 'clusterapi_version = "1.6.3"\ncapi_openstack_version = "0.9.0"\n');
    const logger = memoryLogger();
    const r = await importScs({ clusterctlFile: path.join(SCS, 'clusterctl.yaml'), tfvarsFile: tfvars, cluster: 'prod1', settingsDir: dir, env: 'imported', cwd: dir, dryRun: true }, { logger });
    expect(logger.lines.join('\n')).toMatch(/the SCS files show Cluster API 1\.6\.3 .*older than kaas supports/);
    expect((r.data as { notes: string[] }).notes.filter((n) => n.startsWith('the SCS files show Cluster API 1.6.3'))).toHaveLength(1);
  });
});
