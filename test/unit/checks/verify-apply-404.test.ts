import { verifyAppliedEdge } from '../../../lib/checks/verify-apply.js';
import type { Kubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { HttpError } from '../../../lib/openstack/http-error.js';
import type { CloudSnapshot } from '../../../lib/openstack/snapshot.js';
import type { EdgeExpectation } from '../../../lib/plan/edge-expectation.js';

/**
 * The verification after apply-ingress re-reads the load balancer while OCCM changes it. OCCM replaces a
 * pool whose protocol changed by deleting it, so a read can list a pool and then meet a 404 for its
 * members (seen on the testbed's real amphorae: apply-ingress exited 1 restoring PROXY). Such a 404 is a
 * re-check, until the deadline; any other failure, and a 404 at the deadline, ends the step as before.
 */
const x = { cluster: 'demo', namespace: 'ingress-nginx', service: 'ingress-nginx-controller', occmCluster: 'demo', proxyProtocol: true, monitor: 'service annotation' } as unknown as EdgeExpectation;
const notFound = () => new HttpError({ service: 'Octavia', method: 'GET', url: 'http://o:9876/v2/lbaas/pools/p1/members', status: 404 });
const refused = () => new HttpError({ service: 'Octavia', method: 'GET', url: 'http://o:9876/v2/lbaas/loadbalancers', code: 'ECONNREFUSED' });

function run(answers: (() => Error)[], timeoutSec: number) {
  let now = 0;
  const reads: number[] = [];
  const logger = memoryLogger();
  const p = verifyAppliedEdge(x, { cluster: 'demo', names: {} as never, stuckAfterSec: 600, lb: {} as never, edge: {} as never, needs: {} }, {
    kubectl: {} as Kubectl, logger,
    loadBalancer: async (): Promise<CloudSnapshot> => { reads.push(now); throw (answers.shift() ?? refused)(); },
    sleep: async (ms) => { now += ms; }, now: () => now,
  }, timeoutSec, 5000);
  return { p, reads, logger };
}

describe('verifyAppliedEdge while OCCM replaces a pool', () => {
  it('reads again after a 404 of a pool being replaced; another failure still ends the step', async () => {
    const r = run([notFound, notFound, refused], 60);
    await expect(r.p).rejects.toThrow(/ECONNREFUSED/);
    expect(r.reads).toEqual([0, 5000, 10000]);
    expect(r.logger.lines.join('\n')).toMatch(/changed while it was read \(GET http:\/\/o:9876\/v2\/lbaas\/pools\/p1\/members: HTTP 404\), re-checking/);
  });

  it('a 404 at the deadline ends the step with that 404', async () => {
    const r = run(Array.from({ length: 20 }, () => notFound), 10);
    await expect(r.p).rejects.toThrow(/pools\/p1\/members failed with HTTP 404/);
    expect(r.reads).toEqual([0, 5000, 10000]);
  });
});
