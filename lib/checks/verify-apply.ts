import { OperationError } from '../errors.js';
import { HttpError } from '../openstack/http-error.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import type { CheckInput } from './check.js';
import { fetchClusterSnapshot } from './fetch-cluster.js';
import { hasErrors } from './findings.js';
import type { CloudSnapshot } from '../openstack/snapshot.js';
import { expectedLbName, type EdgeExpectation } from '../plan/edge-expectation.js';
import { verifyEdge } from './verify.js';

/** What the verification step needs. */
export interface VerifyDeps {
  kubectl: Kubectl;
  logger: Logger;
  /** The edge LB in full (fetchLoadBalancerSnapshot through the command's cloud). */
  loadBalancer(name: string): Promise<CloudSnapshot>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/**
 * Verifies the applied edge Service against the plan, re-reading until it matches or `timeoutSec`
 * passes (members go ONLINE only after the first health checks). Throws an OperationError (exit 1)
 * listing each mismatch with the doctor findings that explain it.
 */
export async function verifyAppliedEdge(x: EdgeExpectation, base: Omit<CheckInput, 'cloud' | 'kube' | 'now'>, deps: VerifyDeps, timeoutSec: number, pollMs: number): Promise<void> {
  const name = expectedLbName(x);
  const step = deps.logger.step(`verifying load balancer ${name} against the plan`);
  const deadline = deps.now() + timeoutSec * 1000;
  for (;;) {
    let cloud: CloudSnapshot;
    try {
      cloud = await deps.loadBalancer(name);
    } catch (e) {
      // OCCM replaces a pool whose protocol changed (TCP ↔ PROXY) by deleting it: a read that lists the pool
      // and then asks for its members meets a 404 (seen on the testbed's real amphorae, 2026-11-28). The tree is
      // changing, not gone: read again, until the deadline.
      if (!(e instanceof HttpError && e.status === 404) || deps.now() >= deadline) throw e;
      step.update(`the load balancer changed while it was read (${e.method} ${e.url}: HTTP 404), re-checking`);
      await deps.sleep(pollMs);
      continue;
    }
    const kube = await fetchClusterSnapshot(deps.kubectl);
    const findings = verifyEdge(x, { ...base, now: deps.now(), cloud, kube });
    if (!hasErrors(findings)) {
      step.succeed(`load balancer ${name}: ACTIVE, ${x.proxyProtocol ? 'PROXY' : 'TCP'} pools${x.monitor !== 'none' ? ', health monitors' : ''}, members where the pods run`);
      return;
    }
    if (deps.now() >= deadline) {
      step.fail();
      throw new OperationError(`the load balancer of ${x.namespace}/${x.service} does not match the plan`, {
        problems: findings.map((f) => `[${f.check}] ${f.message} (fix: ${f.fix})`),
        hint: `kaas doctor ${x.cluster} shows every finding; --no-verify skips this step`,
      });
    }
    step.update(`${findings.filter((f) => f.severity === 'error').length} mismatch(es), re-checking`);
    await deps.sleep(pollMs);
  }
}
