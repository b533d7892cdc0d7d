import { CHECK_NAMESPACE, runCheckLb, type CheckLbOptions } from '../../../lib/checklb/check-lb.js';
import type { IngressCloud } from '../../../lib/ingress/cloud.js';
import { createKubectl, type KubeTarget } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { callsSeen, checkLbCalls, delNs, getSvc, isNamespaceDelete, serviceAnswer, spawnCheckLb } from '../../support/check-lb-scenario.js';
import { workloadHome } from '../../support/workload.js';

/** A Service answer whose status.loadBalancer is `lb`. */
const svc = (lb: unknown) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo-cluster' }, status: { loadBalancer: lb } });

describe('check-lb removes its namespace whatever stops it, and says how when it cannot', () => {
  let fake: FakeTools | undefined;
  afterEach(() => fake?.cleanup());

  function setup(scenario: (kc: string) => FakeCall[], kubectlFor?: (t: KubeTarget) => ReturnType<typeof createKubectl>) {
    const { home, kubeconfig: kc } = workloadHome();
    fake = fakeTools(scenario(kc));
    const cloud = { credentials: () => ({}), loadBalancerVip: async () => undefined } as unknown as IngressCloud;
    const o: CheckLbOptions = { cluster: 'demo', settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home, kubeconfig: kc, sets: ['use_ovn_lb_provider=false'], tries: 1, pollMs: 1, settleSec: 0 };
    const logger = memoryLogger();
    const deps = { logger, runner: fakeRunner(fake), cloud, sleep: async () => {}, kubectlFor: kubectlFor ?? ((t: KubeTarget) => createKubectl(fakeRunner(fake!), t, fake!.bin('kubectl'))) };
    return { o, deps, kc, logger };
  }

  it('a Service address of the wrong type: a clear error naming the field (was "address.includes is not a function"), and the namespace is deleted', async () => {
    const { o, deps } = setup((kc) => checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, { stdout: JSON.stringify(svc({ ingress: [{ ip: 7 }] })) }), delNs(kc)]));
    await expect(runCheckLb(o, deps)).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining('Service kaas-check-lb/echo-cluster: status.loadBalancer.ingress[0].ip is 7 (a number), not an IP address') });
    fake!.assertDone();
    expect(isNamespaceDelete(fake!.calls().at(-1)!.argv)).toBe(true);
  });

  it('the delete refused too: the run\'s own error stands, and the warning names the kubectl command with the kubeconfig check-lb used', async () => {
    const { o, deps, kc, logger } = setup((kc) => checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, { stdout: '<html>proxy login</html>' }),
      delNs(kc, { exitCode: 1, stderr: `Error from server (Forbidden): namespaces "${CHECK_NAMESPACE}" is forbidden\n` })]));
    await expect(runCheckLb(o, deps)).rejects.toMatchObject({ message: expect.stringContaining('printed output kaas cannot read: not JSON') });
    fake!.assertDone();
    expect(logger.lines.join('\n')).toContain(`could not remove namespace kaas-check-lb: ${fake!.bin('kubectl')} --kubeconfig ${kc} delete namespace … exited with 1 (Error from server (Forbidden): namespaces "${CHECK_NAMESPACE}" is forbidden); remove it (and with it the check's load balancers) yourself: kubectl delete namespace kaas-check-lb --kubeconfig ${kc}`);
  });

  it('a delete that fails with something not an Error does not hide why the run stopped (was a TypeError from the cleanup)', async () => {
    const { o, deps, logger } = setup((kc) => checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, { exitCode: 1, stderr: 'Unable to connect to the server: EOF\n' })]),
      (t) => ({ ...createKubectl(fakeRunner(fake!), t, fake!.bin('kubectl')), delete: () => Promise.reject(null) }));
    await expect(runCheckLb(o, deps)).rejects.toMatchObject({ message: expect.stringContaining('Unable to connect to the server: EOF') });
    expect(logger.lines.join('\n')).toMatch(/could not remove namespace kaas-check-lb: null; remove it .*yourself: kubectl delete namespace kaas-check-lb --kubeconfig /);
  });

  it('a delete the API server never answers is bounded (cleanupMs), not kubectl\'s five minutes', async () => {
    const { o, deps, logger } = setup((kc) => checkLbCalls(kc, [getSvc(kc, 'echo-cluster', undefined, { exitCode: 1, stderr: 'Unable to connect to the server: EOF\n' }), delNs(kc, { delayMs: 30_000 })]));
    const t0 = Date.now();
    await expect(runCheckLb({ ...o, cleanupMs: 1000 }, deps)).rejects.toMatchObject({ message: expect.stringContaining('Unable to connect to the server: EOF') });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(logger.lines.join('\n')).toMatch(/could not remove namespace kaas-check-lb: .*timed out after 1000 ms.*yourself: kubectl delete namespace kaas-check-lb --kubeconfig /);
  }, 20_000);

  it('SIGINT while waiting and the delete refused: exit 130, and stderr says how to remove the namespace from this cluster', async () => {
    const { kubeconfig: kc } = workloadHome();
    const slow = getSvc(kc, 'echo-cluster', undefined, { ...serviceAnswer('echo-cluster'), delayMs: 4000 });
    fake = fakeTools(checkLbCalls(kc, [slow, delNs(kc, { exitCode: 1, stderr: 'Unable to connect to the server: EOF\n' })]));
    const { child, stderr, exited } = spawnCheckLb(kc, fake);
    await callsSeen(fake, 5);
    child.kill('SIGINT');
    expect(await exited).toEqual([130, null]);
    fake.assertDone();
    expect(stderr()).toContain(`yourself: kubectl delete namespace kaas-check-lb --kubeconfig ${kc}`);
    expect(stderr()).not.toMatch(/namespace kaas-check-lb removed/);
  }, 60_000);
});
