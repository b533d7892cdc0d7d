import { readFileSync } from 'node:fs';
import { ExecError } from '../../../lib/exec/runner.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { clearSecrets, redact } from '../../../lib/redact.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';

const KC = ['--kubeconfig', '/tmp/workload.yaml', '--context', 'demo-admin@demo'];
let fake: FakeTools | undefined;

function kubectlWith(calls: FakeCall[]) {
  fake = fakeTools(calls);
  return createKubectl(fakeRunner(fake), { kubeconfig: '/tmp/workload.yaml', context: 'demo-admin@demo' }, fake.bin('kubectl'));
}

afterEach(() => {
  fake?.cleanup();
  fake = undefined;
  clearSecrets();
});

describe('kubectl adapter', () => {
  it('server-side applies from stdin with field manager kaas and --force-conflicts', async () => {
    const manifest = '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ingress-nginx\n';
    const k = kubectlWith([
      {
        tool: 'kubectl', argv: [...KC, 'apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'], stdin: manifest,
        response: { stdout: 'namespace/ingress-nginx serverside-applied\n' },
      },
    ]);
    await expect(k.apply(manifest, { forceConflicts: true })).resolves.toBe('namespace/ingress-nginx serverside-applied\n');
    fake!.assertDone();
    expect(fake!.calls()[0].stdin).toBe(manifest);
  });

  it('reads the client version from the recorded kubectl v1.32 output', async () => {
    const k = kubectlWith([{ tool: 'kubectl', argv: [...KC, 'version', '--client', '-o', 'json'], response: { stdoutFile: `${RECORDED}/version-client.json` } }]);
    await expect(k.clientVersion()).resolves.toMatch(/^v1\.32\./);
    fake!.assertDone();
  });

  it('returns undefined for a secret that does not exist', async () => {
    const k = kubectlWith([
      {
        tool: 'kubectl', argv: [...KC, 'get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'],
        response: { stderrFile: `${RECORDED}/error-secret-not-found.txt`, exitCode: 1 },
      },
    ]);
    await expect(k.readSecret('kube-system', 'cloud-config')).resolves.toBeUndefined();
    fake!.assertDone();
  });

  it('throws, not "absent", when kubectl says the context was not found (a kubectl error, not NotFound)', async () => {
    const k = kubectlWith([
      {
        tool: 'kubectl', argv: [...KC, 'get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'],
        response: { stderrFile: `${RECORDED}/error-context-not-found.txt`, exitCode: 1 },
      },
    ]);
    const err = await k.readSecret('kube-system', 'cloud-config').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecError);
    expect((err as ExecError).message).toContain('context was not found for specified context: nope');
    fake!.assertDone();
  });

  it('decodes a secret and registers its values for redaction', async () => {
    const k = kubectlWith([
      {
        tool: 'kubectl', argv: [...KC, 'get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'],
        response: { stdoutFile: `${RECORDED}/get-secret-cloud-config.json` },
      },
    ]);
    const data = await k.readSecret('kube-system', 'cloud-config');
    expect(data?.['cloud.conf']).toContain('[LoadBalancer]');
    expect(redact(data!['cloud.conf'])).not.toContain('s3cr3t-value');
    fake!.assertDone();
  });

  it('throws an ExecError carrying the stderr kubectl printed for a missing kubeconfig', async () => {
    const stderr = readFileSync(`${RECORDED}/error-kubeconfig-missing.txt`, 'utf8');
    const k = kubectlWith([
      { tool: 'kubectl', argv: [...KC, 'get', 'service', '--namespace', 'ingress-nginx', '-o', 'json'], response: { stderr, exitCode: 1 } },
    ]);
    const err = await k.getJson('service', undefined, { namespace: 'ingress-nginx' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecError);
    expect((err as ExecError).message).toContain('stat /nonexistent: no such file or directory');
    expect((err as ExecError).hint).toMatch(/kubeconfig/);
  });

  it('deletes with --ignore-not-found and waits for rollouts with a timeout', async () => {
    const k = kubectlWith([
      { tool: 'kubectl', argv: [...KC, 'delete', 'job', 'a', 'b', '--namespace', 'ingress-nginx', '--ignore-not-found'] },
      { tool: 'kubectl', argv: [...KC, 'rollout', 'status', 'deployment/x', '--namespace', 'ingress-nginx', '--timeout=30s'] },
      {
        tool: 'kubectl', argv: [...KC, 'rollout', 'status', 'deployment/x', '--namespace', 'ingress-nginx', '--timeout=30s'],
        response: { stderr: 'error: timed out waiting for the condition\n', exitCode: 1 },
      },
    ]);
    await k.delete(['job', 'a', 'b'], { namespace: 'ingress-nginx' });
    await k.rolloutStatus('deployment/x', { namespace: 'ingress-nginx' }, 30);
    await expect(k.rolloutStatus('deployment/x', { namespace: 'ingress-nginx' }, 30)).rejects.toThrow(/did not become ready within 30s: error: timed out/);
    fake!.assertDone();
  });

  it('reads objects of several kinds by name in one run, leaving out the missing ones (getObjects)', async () => {
    const kcp = { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: 'demo-control-plane' } };
    const md = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'demo-md-0' } };
    const argv = [...KC, 'get', 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io/demo-control-plane', 'machinedeployments.v1beta2.cluster.x-k8s.io/demo-md-0', '--namespace', 'demo', '--ignore-not-found', '-o', 'json'];
    const k = kubectlWith([
      { tool: 'kubectl', argv, response: { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [kcp, md] }) } },
      // One left: kubectl still prints a List for several names asked; for one name asked, the object.
      { tool: 'kubectl', argv, response: { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [md] }) } },
      { tool: 'kubectl', argv: [...KC, 'get', 'namespace/demo', '--ignore-not-found', '-o', 'json'], response: { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } }) } },
      // None exists: kubectl prints nothing.
      { tool: 'kubectl', argv, response: { stdout: '' } },
    ]);
    const refs = ['kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io/demo-control-plane', 'machinedeployments.v1beta2.cluster.x-k8s.io/demo-md-0'];
    const kinds = async (r: Promise<{ kind: string }[]>) => (await r).map((o) => o.kind);
    await expect(kinds(k.getObjects(refs, { namespace: 'demo' }))).resolves.toEqual(['KubeadmControlPlane', 'MachineDeployment']);
    await expect(kinds(k.getObjects(refs, { namespace: 'demo' }))).resolves.toEqual(['MachineDeployment']);
    await expect(kinds(k.getObjects(['namespace/demo']))).resolves.toEqual(['Namespace']);
    await expect(k.getObjects(refs, { namespace: 'demo' })).resolves.toEqual([]);
    // Nothing asked: no kubectl run.
    await expect(k.getObjects([])).resolves.toEqual([]);
    fake!.assertDone();
  });

  it('makes an unexpected call fail loudly (fake exits 97) and assertDone report it', async () => {
    const k = kubectlWith([{ tool: 'kubectl', argv: [...KC, 'version', '--client', '-o', 'json'] }]);
    await expect(k.run(['get', 'pods'])).rejects.toThrow(/unexpected call #1/);
    expect(() => fake!.assertDone()).toThrow(/was unexpected/);
  });
});
