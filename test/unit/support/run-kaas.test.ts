import { runKaas } from '../../support/cli.js';

describe('runKaas', () => {
  it('reports a process that cannot start, with the reason, instead of code null', () => {
    expect(() => runKaas(['--help'], { prefix: ['/nonexistent/kaas-launcher'] })).toThrow(/kaas --help: spawnSync \/nonexistent\/kaas-launcher ENOENT/);
  });

  it('returns code, stdout and stderr of a run that ends', () => {
    const r = runKaas(['--version']);
    expect(r).toEqual({ code: 0, stdout: expect.stringMatching(/\d+\.\d+\.\d+/), stderr: '' });
  });
});
