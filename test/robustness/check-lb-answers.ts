import { CHECK_NAMESPACE } from '../../lib/checklb/check-lb.js';
import { fakeTools, type FakeCall, type FakeTools } from '../fakes/fake-tools.js';
import { applyCall, checkLbCalls, delNs, getNodes, getNs, getSvc, isNamespaceDelete, rolloutCall } from '../support/check-lb-scenario.js';
import { workloadHome } from '../support/workload.js';
import type { Case } from './corpus.js';

/**
 * Kind "check-lb answers" (issue 31, section 5: check-lb left its namespace behind when a hostile answer
 * stopped it): the workload cluster's kubectl answers in another shape at each step of `kaas check-lb` —
 * the node list, the apply (half done), the rollout, the Services' status — and, last, refuses the
 * namespace delete too. Each run ends with a clear error; once the apply was sent, the namespace delete
 * is issued (the fake records every call), and when that fails, stderr names the command that removes
 * it from this cluster. Before the apply, nothing is created and nothing is deleted.
 */

type Step = (kc: string) => { calls: FakeCall[]; said: string[]; created: boolean };

const svcJson = (status: unknown) => ({ stdout: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo-cluster', namespace: CHECK_NAMESPACE }, status }) });
const refused = { exitCode: 1, stderr: 'Unable to connect to the server: EOF\n' };

/** name → the scripted calls, what stderr must say, and whether the run had sent the apply. */
const STEPS: Record<string, Step> = {
  'nodes-not-json': (kc) => ({ calls: [getNodes(kc, { stdout: '<html>proxy login</html>' })], said: ['get nodes -o json printed output kaas cannot read: not JSON'], created: false }),
  'namespace-lookup-refused': (kc) => ({ calls: [getNodes(kc), { ...getNs(kc), response: refused }], said: ['exited with 1', 'Unable to connect to the server: EOF'], created: false }),
  'apply-half-refused': (kc) => ({
    calls: [getNodes(kc), getNs(kc), applyCall(kc, { exitCode: 1, stdout: 'namespace/kaas-check-lb serverside-applied\n', stderr: 'Error from server (Forbidden): deployments.apps "echo" is forbidden: exceeded quota: pods\n' }), delNs(kc)],
    said: ['exceeded quota: pods'], created: true,
  }),
  'rollout-fails': (kc) => ({ calls: [getNodes(kc), getNs(kc), applyCall(kc), rolloutCall(kc, { exitCode: 1, stderr: 'error: timed out waiting for the condition\n' }), delNs(kc)], said: ['deployment/echo did not become ready within 300s'], created: true }),
  'service-not-json': (kc) => ({ calls: checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, { stdout: '{"kind": "Serv' }), delNs(kc)]), said: ['printed output kaas cannot read'], created: true }),
  'service-ip-a-number': (kc) => ({ calls: checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, svcJson({ loadBalancer: { ingress: [{ ip: 7 }] } })), delNs(kc)]), said: ['status.loadBalancer.ingress[0].ip is 7 (a number), not an IP address'], created: true }),
  'service-ingress-null-entry': (kc) => ({ calls: checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, svcJson({ loadBalancer: { ingress: [null] } })), delNs(kc)]), said: ['status.loadBalancer.ingress[0] is null, not an object'], created: true }),
  'service-hostname-escape': (kc) => ({ calls: checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, svcJson({ loadBalancer: { ingress: [{ hostname: 'lb\u001b]0;owned\u0007\nhint: all is fine' }] } })), delNs(kc)]), said: ['not a DNS name', '\\u001b]0;owned'], created: true }),
  'delete-refused-too': (kc) => ({
    calls: checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, { stdout: 'null' }), delNs(kc, { exitCode: 1, stderr: `Error from server (Forbidden): namespaces "${CHECK_NAMESPACE}" is forbidden\n` })]),
    said: ['could not remove namespace kaas-check-lb', `yourself: kubectl delete namespace kaas-check-lb --kubeconfig ${kc}`], created: true,
  }),
};

/** What the fake saw, judged: every scripted call made, and the namespace delete issued exactly when the apply was. */
function afterRun(fake: FakeTools, created: boolean): string[] {
  const problems: string[] = [];
  try {
    fake.assertDone();
  } catch (e) {
    problems.push((e as Error).message);
  }
  const calls = fake.calls();
  const applied = calls.some((c) => c.argv.includes('apply'));
  const deleted = calls.some((c) => isNamespaceDelete(c.argv));
  if (applied !== created) problems.push(`the apply was ${applied ? '' : 'not '}sent`);
  if (applied && !deleted) problems.push(`namespace ${CHECK_NAMESPACE} left behind: no delete after the apply`);
  if (!applied && deleted) problems.push('a delete without an apply');
  return problems;
}

/** The check-lb cases; their fakes' folders are temporary dirs (removed with the corpus's). */
export function checkLbAnswerCases(env: Record<string, string>): Case[] {
  return Object.entries(STEPS).map(([name, step]) => {
    const { kubeconfig: kc } = workloadHome();
    const s = step(kc);
    const fake = fakeTools(s.calls);
    return {
      suite: 'check-lb-answers', name, env: { ...env, ...fake.env }, exit: 1, fragments: [...s.said, 'hint:'],
      args: ['check-lb', 'demo', '--env', 'example', '--settings-dir', 'settings', '--kubeconfig', kc, '--set', 'use_ovn_lb_provider=false'],
      after: () => afterRun(fake, s.created),
    };
  });
}
