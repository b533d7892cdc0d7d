import type { ClusterCloud } from '../../../lib/cluster/cloud.js';
import { cleanupCloud, type CleanupItem } from '../../../lib/cluster/delete/cloud.js';
import { OperationError } from '../../../lib/errors.js';
import { createLogger } from '../../../lib/log.js';
import { HttpError } from '../../../lib/openstack/http-error.js';

/** A clock that only moves when kaas sleeps. */
function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return { now: () => now, sleep: async (ms: number) => void (sleeps.push(ms), (now += ms)), sleeps };
}

const conflict = () => new HttpError({ service: 'Octavia', method: 'DELETE', url: 'http://octavia/v2/lbaas/loadbalancers/lb1?cascade=true', status: 409, detail: 'Invalid state PENDING_UPDATE of loadbalancer resource lb1' });
const LB: CleanupItem = { kind: 'load balancer', id: 'lb1', what: 'load balancer kube_service_demo_ingress-nginx_ingress-nginx-controller (lb1)' };

function cloudAnswering(answers: (Error | undefined)[]): { cloud: ClusterCloud; calls: () => number } {
  let n = 0;
  const cloud = {
    async deleteLoadBalancer() {
      const a = answers[Math.min(n++, answers.length - 1)];
      if (a) throw a;
    },
    loadBalancers: async () => [],
  } as unknown as ClusterCloud;
  return { cloud, calls: () => n };
}

describe('deleting a load balancer that Octavia holds in PENDING_* (409 Conflict)', () => {
  const logger = createLogger({ quiet: true, write: () => undefined });

  it('waits and retries until Octavia accepts the delete', async () => {
    const { cloud, calls } = cloudAnswering([conflict(), conflict(), undefined]);
    const clock = fakeClock();
    await cleanupCloud(cloud, [LB], logger, clock, 300);
    expect(calls()).toBe(3);
    expect(clock.sleeps).toEqual([5000, 5000]);
  });

  it('gives up with the timeout, naming what to look at', async () => {
    const { cloud } = cloudAnswering([conflict()]);
    const clock = fakeClock();
    const err = await cleanupCloud(cloud, [LB], logger, clock, 20).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).message).toMatch(/deleting load balancer .*: not done within 20s \(last state: busy \(409 Conflict\); retrying\)/);
    expect((err as OperationError).hint).toContain('openstack loadbalancer show lb1');
  });

  it('any other error is not retried', async () => {
    const forbidden = new HttpError({ service: 'Octavia', method: 'DELETE', url: 'http://octavia/x', status: 403 });
    const { cloud, calls } = cloudAnswering([forbidden]);
    await expect(cleanupCloud(cloud, [LB], logger, fakeClock(), 300)).rejects.toBe(forbidden);
    expect(calls()).toBe(1);
  });
});
