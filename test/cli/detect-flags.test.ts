import { runKaas } from '../support/cli.js';

describe('kaas detect flags (built CLI)', () => {
  it('refuses --cloud together with --capabilities instead of ignoring one of them (exit 2)', () => {
    const r = runKaas(['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--cloud', 'prod']);
    expect(r.stderr).toMatch(/capabilities.*cloud.*mutually exclusive|mutually exclusive.*capabilities.*cloud/);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('plans from the capabilities file alone, without any cloud configured', () => {
    const r = runKaas(['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--set', 'use_ovn_lb_provider=auto', '-o', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { loadBalancer: { provider: string } };
    expect(report.loadBalancer.provider).toBe('ovn');
  });
});
