/**
 * Issue 20 item 5, the fakes follow the real thing: the same kubectl calls (argv and stdin) go to the
 * stateful management-cluster fake (test/fakes/mgmt-cluster.mjs, which the unit and CLI tests use for
 * speed) and to the testbed's real API server with the real CAPI/CAPO webhooks, and must get the same
 * verdicts (exit codes) and the same texts. The objects are kaas's own render (create-cluster
 * --dry-run) of a cluster that has no Cluster object, so that CAPO builds nothing for it; the changes
 * are the ones kaas's change rules (lib/cluster/live/changes.ts) decide about.
 */
import { parseAllDocuments, stringify } from 'yaml';
import { fakeManagementCluster, type FakeManagementCluster } from '../fakes/fake-tools.js';
import { kaasUser, kubectl, renderedCluster, run, testbed, type KaasUser, type Run } from './support.js';

const NS = 'tbconf';
let u: KaasUser;
let fake: FakeManagementCluster;
let docs: Record<string, any>[];

/** What kubectl printed, without deprecation warnings (the fake and the server both print them; compared on their own). */
const verdict = (r: Run) => ({
  code: r.code,
  stdout: r.stdout.trim(),
  stderr: r.stderr.split('\n').filter((l) => l && !/^Warning: .* is deprecated/.test(l)).join('\n').trim(),
});

/** Runs one kubectl call against the real management cluster and against the fake. */
async function both(args: string[], input?: string): Promise<{ real: ReturnType<typeof verdict>; fake: ReturnType<typeof verdict> }> {
  const tb = testbed();
  const real = await kubectl(args, { input });
  const f = await run('kubectl', ['--kubeconfig', tb.mgmtKubeconfig, ...args], { env: { ...process.env, ...fake.env, PATH: `${fake.env.PATH}` }, input });
  return { real: verdict(real), fake: verdict(f) };
}

const apply = (objs: object[]) => both(['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'], objs.map((o) => stringify(o)).join('---\n'));
const of = (kind: string) => structuredClone(docs.find((d) => d.kind === kind)!);

beforeAll(async () => {
  u = kaasUser();
  const r = await renderedCluster(u, NS);
  if (r.run.code !== 0) throw new Error(`render: ${r.run.stderr}`);
  docs = parseAllDocuments(r.yaml).map((d) => d.toJSON()).filter(Boolean);
  fake = fakeManagementCluster(testbed().mgmtKubeconfig);
  await kubectl(['delete', 'namespace', NS, '--ignore-not-found', '--wait=true'], { timeoutMs: 300_000 });
  const created = await both(['create', 'namespace', NS]);
  expect(created.real).toEqual(created.fake);
  const base = await apply([of('OpenStackCluster'), of('OpenStackMachineTemplate')]);
  expect(base.real).toEqual(base.fake);
}, 600_000);

afterAll(async () => {
  fake?.cleanup();
  await kubectl(['delete', 'namespace', NS, '--ignore-not-found', '--wait=false']);
});

describe('the management-cluster fake answers as the real API server and webhooks do', () => {
  test.each([
    ['OpenStackCluster externalNetwork change (outside CAPO\'s allow-list)', () => { const o = of('OpenStackCluster'); o.spec.externalNetwork = { filter: { name: 'other' } }; return [o]; }],
    ['OpenStackCluster apiServerLoadBalancer.provider set (open → restricted as kaas renders it)', () => { const o = of('OpenStackCluster'); o.spec.apiServerLoadBalancer.provider = 'amphora'; return [o]; }],
    ['OpenStackCluster subnet CIDR change', () => { const o = of('OpenStackCluster'); o.spec.managedSubnets[0].cidr = '10.9.0.0/20'; return [o]; }],
    ['OpenStackCluster allowedCIDRs change (in CAPO\'s allow-list)', () => { const o = of('OpenStackCluster'); o.spec.apiServerLoadBalancer.allowedCIDRs = ['10.1.0.0/16']; return [o]; }],
    ['OpenStackCluster dnsNameservers change (in CAPO\'s allow-list)', () => { const o = of('OpenStackCluster'); o.spec.managedSubnets[0].dnsNameservers = ['127.0.0.54']; return [o]; }],
    ['OpenStackMachineTemplate flavor change in place', () => { const o = of('OpenStackMachineTemplate'); o.spec.template.spec.flavor = 'tb.medium'; return [o]; }],
    ['KubeadmControlPlane with an even replica count (stacked etcd)', () => { const o = of('KubeadmControlPlane'); o.spec.replicas = 2; return [o]; }],
  ])('%s: same exit code and texts', async (_what, objects) => {
    const r = await apply(objects());
    expect(r.fake).toEqual(r.real);
  });

  test('a second subnet (refused by the CRD schema, maxItems 1): same verdict and field; the texts differ on purpose', async () => {
    const o = of('OpenStackCluster');
    o.spec.managedSubnets.push({ cidr: '10.10.0.0/20' });
    const r = await apply([o]);
    // The fake validates with kaas's own ajv validator (its words, "must NOT have more than 1 items"); the
    // API server says "spec.managedSubnets: Too many: 2: must have at most 1 item" plus a CEL note.
    // kaas never shows either text as its own, so only the verdict and the field are held equal.
    expect({ code: r.fake.code, field: /spec\.managedSubnets/.test(r.fake.stderr) }).toEqual({ code: r.real.code, field: /spec\.managedSubnets/.test(r.real.stderr) });
    expect(r.real.code).toBe(1);
  });

  test('a v1beta1 Cluster API object: the API server and the fake warn alike (kaas renders v1beta2 and draws none)', async () => {
    const kcp = of('KubeadmControlPlane');
    const v1beta1 = { ...kcp, apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1', spec: { ...kcp.spec, machineTemplate: { infrastructureRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: kcp.spec.machineTemplate.spec.infrastructureRef.name } }, kubeadmConfigSpec: { format: 'cloud-config' } } };
    const args = ['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '--dry-run=server', '-f', '-'];
    const tb = testbed();
    const real = await kubectl(args, { input: stringify(v1beta1) });
    const f = await run('kubectl', ['--kubeconfig', tb.mgmtKubeconfig, ...args], { env: { ...process.env, ...fake.env, PATH: `${fake.env.PATH}` }, input: stringify(v1beta1) });
    const warned = (r: Run) => r.stderr.split('\n').filter((l) => l.startsWith('Warning: '));
    expect(warned(real)).toEqual(['Warning: controlplane.cluster.x-k8s.io/v1beta1 KubeadmControlPlane is deprecated; use controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlane']);
    expect(warned(f)).toEqual(warned(real));
    const v1beta2 = await both(args, stringify(kcp));
    expect(v1beta2.real).toEqual(v1beta2.fake);
    expect(v1beta2.real.stderr).toBe('');
  });

  test('NotFound of a CAPO object: same text', async () => {
    const r = await both(['get', 'openstackclusters.v1beta1.infrastructure.cluster.x-k8s.io', 'nope', '--namespace', NS, '-o', 'json']);
    expect(r.fake).toEqual(r.real);
  });

  test('apply into a namespace that does not exist: same refusal', async () => {
    const o = of('OpenStackCluster');
    o.metadata.namespace = 'tbconf-missing';
    const r = await apply([o]);
    expect(r.fake).toEqual(r.real);
  });
});
