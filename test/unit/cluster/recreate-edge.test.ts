import { recreateEdgeServices, serviceGone } from '../../../lib/cluster/live/edge.js';
import { OperationError } from '../../../lib/errors.js';
import { waitForAddress } from '../../../lib/ingress/apply-steps.js';
import type { Kubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeClock } from './scenario.js';

/**
 * `create-cluster --recreate-edge-services` (review 2026-11-27 N4): OCCM's finalizer holds a deleted
 * Service while it deletes the load balancer. Before the fix kaas deleted with --wait=false and the
 * edge step applied at once, onto the terminating Service, which then went for good; and the address
 * wait reported the old load balancer's address of the terminating object.
 */
type Svc = { metadata: { name: string; namespace: string; uid?: string; deletionTimestamp?: string }; status?: { loadBalancer?: { ingress?: { ip?: string }[] } } };
const svc = (uid: string, ip?: string, terminating = false): Svc => ({
  metadata: { name: 'ingress-nginx-controller', namespace: 'ingress-nginx', uid, ...(terminating ? { deletionTimestamp: '2026-11-27T10:00:00Z' } : {}) },
  ...(ip ? { status: { loadBalancer: { ingress: [{ ip }] } } } : {}),
});

/** A kubectl whose Service reads follow `reads` (the last one repeats); deletes are recorded. */
function kubectl(reads: (Svc | undefined)[]): { k: Kubectl; calls: string[] } {
  const calls: string[] = [];
  let i = 0;
  const k = {
    async getJson() {
      calls.push('get');
      return reads[Math.min(i++, reads.length - 1)];
    },
    async delete(r: string[], scope: { wait?: boolean }) {
      calls.push(`delete ${r.join(' ')}${scope.wait === false ? ' --wait=false' : ''}`);
    },
  } as unknown as Kubectl;
  return { k, calls };
}

describe('serviceGone (pure)', () => {
  it.each([
    ['absent', svc('u1'), undefined, true, 'gone'],
    ['terminating (OCCM\'s finalizer)', svc('u1'), svc('u1', '203.0.113.5', true), false, 'terminating (finalizer held)'],
    ['made again under a new uid (Envoy Gateway re-creates its Service)', svc('u1'), svc('u2'), true, 'made again (new uid)'],
  ])('%s', (_what, before, now, done, progress) => expect(serviceGone(before, now)).toEqual({ done, progress }));
});

describe('recreateEdgeServices', () => {
  it('returns only once the terminating Service is gone (before: right after the delete, and the edge step patched the terminating object)', async () => {
    const { k, calls } = kubectl([svc('u1', '203.0.113.5'), svc('u1', '203.0.113.5', true), svc('u1', '203.0.113.5', true), undefined]);
    const clock = fakeClock();
    await recreateEdgeServices(k, ['ingress-nginx/ingress-nginx-controller'], memoryLogger(false), clock);
    expect(calls).toEqual(['get', 'delete service/ingress-nginx-controller --wait=false', 'get', 'get', 'get']);
    expect(clock.sleeps).toBe(2);
  });

  it('a Service that stays terminating ends the run with what to look at', async () => {
    const { k } = kubectl([svc('u1', '203.0.113.5'), svc('u1', '203.0.113.5', true)]);
    const e = await recreateEdgeServices(k, ['ingress-nginx/ingress-nginx-controller'], memoryLogger(false), fakeClock(), 60).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OperationError);
    expect((e as OperationError).message).toMatch(/Service ingress-nginx\/ingress-nginx-controller gone .*not done within 60s \(last state: terminating \(finalizer held\)\)/);
    expect((e as OperationError).hint).toMatch(/finalizers/);
  });
});

describe('waitForAddress', () => {
  it('does not report the address of a terminating Service (the old load balancer\'s): it waits for the new one', async () => {
    const { k } = kubectl([svc('u1', '203.0.113.5', true), undefined, svc('u2'), svc('u2', '203.0.113.99')]);
    const r = await waitForAddress(k, memoryLogger(false), { rolloutSec: 1, addressSec: 60, verifySec: 1, pollMs: 1 }, async () => undefined);
    expect(r.st.ip).toBe('203.0.113.99');
  });
});
