/**
 * `kaas check-lb` against the testbed: its two plain LoadBalancer Services (ETP Cluster and Local) get
 * real Octavia LBs from the real OCCM, and it probes their floating IPs from this host. There is no data
 * path (the floating IPs are addresses of the namespace's lo, nothing listens behind them, no amphora
 * forwards anything), so every request fails: check-lb must not pass, must say which checks could not
 * be answered, and must clean up its namespace and LBs.
 */
import { jest } from '@jest/globals';
import { kaas, note, testbed, until, wkJson, type Testbed } from './workload-support.js';

jest.setTimeout(20 * 60_000);

let tb: Testbed;

beforeAll(() => { tb = testbed(); });

test('check-lb builds real LBs, does not pass without a data path, and cleans up', async () => {
  const r = kaas(tb, ['check-lb', tb.cluster, '--tries', '3', '--address-timeout', '10m', '-o', 'json'], { sets: { use_ovn_lb_provider: 'false' } });
  note(tb, `check-lb exit ${r.code} in ${r.ms} ms\n${r.stdout.slice(0, 3000)}\n${r.stderr.slice(-3000)}`);
  expect(r.code).toBe(1);
  const report = JSON.parse(r.stdout) as { provider: string; addresses: Record<string, string>; checks: { check: string; result: string; detail: string }[] };
  expect(report.provider).toBe('amphora');
  // Both Services got a real address (the LB's floating IP, from Neutron) before probing.
  expect(Object.values(report.addresses ?? {}).every((a) => /^172\.24\.4\./.test(a))).toBe(true);
  const by = Object.fromEntries(report.checks.map((c) => [c.check, c]));
  expect(by['cluster-answers'].result).toBe('fail');
  expect(by['local-answers'].result).toBe('fail');
  // The namespace and its two LBs are gone again.
  await until('kaas-check-lb removed', 600_000, async () =>
    wkJson(tb, ['get', 'namespace', 'kaas-check-lb']) === undefined && (await tb.os.loadBalancers()).every((l) => !l.name.includes('_kaas-check-lb_')));
});
