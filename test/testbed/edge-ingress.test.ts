/**
 * The load-balancer decision table of `kaas apply-ingress` (docs/concepts/load-balancers.md), row by row, for real: kaas renders
 * and applies cloud.conf (create-cluster's add-on step: the kube-system/cloud-config Secret and the
 * OCCM DaemonSet whose hash annotation rolls OCCM) and ingress-nginx (apply-ingress, no dry-run) to the
 * testbed's workload apiserver; the real openstack-cloud-controller-manager v1.34.1 (workload.sh's occm
 * loop, started from that DaemonSet and Secret) builds the Octavia load balancer; the test reads it back
 * from Octavia and Neutron with its own REST reader (openstack-reader.ts) and checks kaas's own
 * verification and `kaas doctor` agree.
 *
 * What cannot be proven here (no data path: fake-virt servers, no-op amphora driver, no OVN datapath):
 * members' operating_status (no health check ever runs), so kaas's verification reports
 * `verify-lb-status` / `verify-members` on every amphora row; the test asserts that those are the only
 * mismatches kaas reports, and that kaas names the operating status Octavia really has.
 */
import { jest } from '@jest/globals';
import { INGRESS_ROWS as ROWS } from './ingress-rows.js';
import { readLb, rowTests, serviceWithAddress, type RowState } from './lb-rows.js';
import { applyEdge, memberIps, removeIngress, testbed, until, type Testbed } from './workload-support.js';

jest.setTimeout(30 * 60_000);

// KAAS_EDGE_ROWS='variant;…' runs only those rows (run.ts's smoke in npm test: amphora-proxy and ovn); the
// first row run does the full create-cluster.
const only = process.env.KAAS_EDGE_ROWS?.split(';').map((v) => v.trim()).filter(Boolean);
const RUN = only ? ROWS.filter((r) => only.includes(r.variant)) : ROWS;
if (only && RUN.length !== only.length) throw new Error(`KAAS_EDGE_ROWS names rows that do not exist: ${only.filter((v) => !ROWS.some((r) => r.variant === v)).join(', ')} (rows: ${ROWS.map((r) => r.variant).join('; ')})`);

const SVC = { ns: 'ingress-nginx', name: 'ingress-nginx-controller' };
let tb: Testbed;

beforeAll(async () => {
  tb = testbed();
  await until('the workload Nodes (node-sync)', 600_000, () => memberIps(tb).length >= 1);
});

describe.each(RUN)('apply-ingress row $variant, through the real OCCM and Octavia', (row) => {
  let state: RowState;

  beforeAll(async () => {
    await removeIngress(tb);
    const runs = await applyEdge(tb, row.variant, row.sets, { full: row === RUN[0], command: 'apply-ingress' });
    expect(runs.dry.code).toBe(0);
    const lb = await readLb(tb, SVC.ns, SVC.name, 2);
    state = { lb, svc: await serviceWithAddress(tb, SVC.ns, SVC.name), runs };
  });

  rowTests(() => tb, row, [80, 443], () => state);
});
