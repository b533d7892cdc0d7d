/**
 * Issue 20 item 4, re-runs for each change class kaas claims to handle, on a cluster created with an
 * open kube-API: worker count, worker flavor (new template and repoint), open → restricted
 * restrict_kubeapi, a Kubernetes patch upgrade, and changes CAPO refuses (node_cidr). For each, kaas's
 * verdict (apply / new template / refuse with exit 2 before anything is applied) is compared with what
 * the real webhooks say of the same settings (`kubectl apply --server-side --dry-run=server` of the
 * manifests kaas renders for them) and what the real controllers then do.
 */
import { createProcessRunner } from '../../lib/exec/runner.js';
import { referencedTemplates } from '../../lib/cluster/live/live.js';
import { createKubectl } from '../../lib/kube/kubectl.js';
import { ensureFlavor, ensureImage, listenersOf, openstack } from './openstack.js';
import {
  getObject, kaas, kaasDelete, kaasUser, kaasWrites, leakedSecrets, listObjects, nextPatch, renderedCluster, RES, serverDryRun, tail, testbed, until, type KaasUser,
} from './support.js';

// No clusters.tbrerun section in testbed.yaml (workload.sh adds clusters.tb): real runs say the cluster is new.
const CLUSTER = 'tbrerun';
const NS = CLUSTER;
const FLAVOR2 = 'tb.medium';
// The patch after the testbed's (v1.34.10 → v1.34.11 on the v1.12 release set, v1.36.3 → v1.36.4 on current).
const NEXT_PATCH = nextPatch(testbedVersion());
const base: string[] = ['restrict_kubeapi=', 'worker_count=1'];
let u: KaasUser;
/** The settings of the last successful run (each test changes one thing on top). */
let current = [...base];

type Live = { objects: { kind: string; name: string; action: string; fields: { path: string }[]; note?: string }[] };

/** kaas's verdict on `sets`: the dry-run's per-object plan (or its refusal). */
async function verdict(sets: string[]) {
  const r = await kaas(u, ['create-cluster', CLUSTER, '--dry-run', '-o', 'json'], { sets });
  const live = r.code === 0 ? (JSON.parse(r.stdout) as { live: Live }).live : undefined;
  return { r, live };
}

/** What the real webhooks say of the manifests kaas renders for `sets` (applied as a whole, dry-run). */
async function realVerdict(sets: string[]) {
  const rendered = await renderedCluster(u, CLUSTER, sets);
  expect(rendered.run.code).toBe(0);
  return serverDryRun(rendered.yaml);
}

beforeAll(async () => {
  u = kaasUser();
  await ensureFlavor(FLAVOR2, 2, 8192, 40);
  await ensureImage(`ubuntu-capi-image-${NEXT_PATCH}`);
  const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets: current });
  if (r.code !== 0) throw new Error(`first create-cluster ${CLUSTER} failed: ${tail(r)}`);
  await until('OpenStackCluster ready with an API load balancer', 900_000, async () => {
    const o = await getObject(RES.openStackCluster, CLUSTER, NS);
    return o?.status?.ready === true && o.status.apiServerLoadBalancer?.id ? o : undefined;
  }, 5000);
}, 1_200_000);

afterAll(async () => {
  if ((await getObject(RES.cluster, CLUSTER, NS)) !== undefined) {
    const r = await kaasDelete(u, CLUSTER, 1_200_000);
    if (r.code !== 0) process.stderr.write(`cleanup: delete-cluster ${CLUSTER}: ${tail(r)}\n`);
  }
}, 1_300_000);

describe(`re-runs of create-cluster ${CLUSTER} on the testbed`, () => {
  test('worker_count 1 → 2: applied in place; the real MachineDeployment controller scales its MachineSet', async () => {
    const sets = [...current, 'worker_count=2'];
    const v = await verdict(sets);
    expect(v.r.code).toBe(0);
    const md = v.live!.objects.find((o) => o.kind === 'MachineDeployment')!;
    expect(md.action).toBe('update');
    // Only the replicas: live (read as v1beta2) and rendered (v1beta2) agree on everything else.
    expect(md.fields.map((f) => f.path)).toEqual(['spec.replicas']);
    expect((await realVerdict(sets)).code).toBe(0);
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets });
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    current = sets;
    expect((await getObject(RES.md, `${CLUSTER}-md-0`, NS))?.spec.replicas).toBe(2);
    // The real MachineDeployment controller scales its MachineSet (its Machines wait for the control plane).
    await until('the MachineSet scaled to 2', 300_000, async () => {
      const ms = await listObjects('machinesets.v1beta2.cluster.x-k8s.io', NS, `cluster.x-k8s.io/deployment-name=${CLUSTER}-md-0`);
      return ms.reduce((n, m) => n + Number(m.spec.replicas ?? 0), 0) === 2 ? ms : undefined;
    });
  });

  test('worker_flavor change: a new OpenStackMachineTemplate and the MachineDeployment repointed, as the real webhook demands', async () => {
    const sets = [...current, `worker_flavor=${FLAVOR2}`];
    const mdBefore = await getObject(RES.md, `${CLUSTER}-md-0`, NS);
    const oldTemplate = mdBefore!.spec.template.spec.infrastructureRef.name as string;
    const v = await verdict(sets);
    expect(v.r.code).toBe(0);
    const created = v.live!.objects.filter((o) => o.action === 'create');
    expect(created.map((o) => o.kind)).toEqual(['OpenStackMachineTemplate']);
    expect(created[0].note).toContain(`replaces ${oldTemplate}`);
    // The real CAPO webhook refuses the same flavor change in place (why kaas makes a new template) ...
    const old = await getObject(RES.osmt, oldTemplate, NS);
    const inPlace = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', metadata: { name: oldTemplate, namespace: NS }, spec: { template: { spec: { ...old!.spec.template.spec, flavor: FLAVOR2 } } } };
    const refused = await serverDryRun(JSON.stringify(inPlace));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('OpenStackMachineTemplate spec.template.spec field is immutable. Please create a new resource instead.');
    // ... and accepts the new template with the repointed MachineDeployment.
    expect((await realVerdict(sets)).code).toBe(0);
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets });
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    current = sets;
    const md = await getObject(RES.md, `${CLUSTER}-md-0`, NS);
    const newTemplate = md!.spec.template.spec.infrastructureRef.name as string;
    expect(newTemplate).toBe(created[0].name);
    expect((await getObject(RES.osmt, newTemplate, NS))?.spec.template.spec.flavor).toBe(FLAVOR2);
    // The real MachineDeployment controller starts a new MachineSet on the new template.
    await until('a MachineSet on the new template', 300_000, async () => {
      const sets2 = await listObjects('machinesets.v1beta2.cluster.x-k8s.io', NS, `cluster.x-k8s.io/deployment-name=${CLUSTER}-md-0`);
      return sets2.some((s) => s.spec.template.spec.infrastructureRef.name === newTemplate) ? true : undefined;
    });
    // Review m1: which replaced templates may go is decided by kaas's referencedTemplates. Real Machines
    // point at their cloned OpenStackMachine, never at the template (the old code read that and so found
    // no template in use); the clones carry cloned-from-name. The old machine still uses the old template.
    const machines = await listObjects(RES.machine, NS, `cluster.x-k8s.io/deployment-name=${CLUSTER}-md-0`);
    expect(machines.length).toBeGreaterThan(0);
    expect(machines.map((m) => m.spec.infrastructureRef.kind)).toEqual(machines.map(() => 'OpenStackMachine'));
    const mgmt = createKubectl(createProcessRunner(), { kubeconfig: testbed().mgmtKubeconfig });
    expect([...await referencedTemplates(mgmt, NS, CLUSTER)]).toContain(oldTemplate);
    await until('the new machine\'s OpenStackMachine is found using the new template', 300_000, async () =>
      ((await referencedTemplates(mgmt, NS, CLUSTER)).has(newTemplate) ? true : undefined));
  });

  test('node_cidr change: kaas refuses with exit 2 before anything is applied, as the real CAPO webhook refuses it', async () => {
    const sets = [...current, 'node_cidr=10.9.0.0/20'];
    const real = await realVerdict(sets);
    expect(real.code).not.toBe(0);
    expect(real.stderr).toMatch(/cannot be modified|cannot change subnet CIDR/);
    // What kaas wrote (generations and kaas's managedFields), not resourceVersions: the MachineDeployment
    // rolled in the test before, and its controller's status writes to the Cluster and the MachineDeployment
    // moved their resourceVersions during this one (CI-shaped run, 2026-11-29).
    const before = await kaasWrites(NS);
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('spec.managedSubnets');
    expect(await kaasWrites(NS)).toEqual(before);
  });

  test('restrict_kubeapi open → restricted: applied (allowedCIDRs only, the live provider kept) and on the real listener (review M1)', async () => {
    const cidr = '10.40.0.0/16';
    const sets = [...current, `restrict_kubeapi=${cidr}`];
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets });
    // Before the M1 fix kaas refuses this itself (exit 2: "spec.apiServerLoadBalancer.provider cannot change"),
    // though CAPO accepts an allowedCIDRs change and the live LB already is amphora.
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    current = sets;
    const osc = await getObject(RES.openStackCluster, CLUSTER, NS);
    expect(osc!.spec.apiServerLoadBalancer.allowedCIDRs).toEqual(expect.arrayContaining([cidr]));
    const os = await openstack();
    await until('allowed_cidrs on the API listener', 300_000, async () => {
      const l = (await listenersOf(os, osc!.status.apiServerLoadBalancer.id)).find((x) => x.protocol_port === 6443);
      return (l?.allowed_cidrs ?? []).includes(cidr) ? true : undefined;
    });
  });

  test(`Kubernetes ${testbedVersion()} → ${NEXT_PATCH}: new templates (image), control plane and workers at the new version, accepted by the real KCP webhook`, async () => {
    const sets = [...current, `kubernetes_version=${NEXT_PATCH}`, 'image='];
    const v = await verdict(sets);
    expect({ code: v.r.code, out: v.r.code === 0 ? '' : tail(v.r) }).toEqual({ code: 0, out: '' });
    expect(v.live!.objects.filter((o) => o.action === 'create').map((o) => o.kind).sort()).toEqual(['OpenStackMachineTemplate', 'OpenStackMachineTemplate']);
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets });
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    // What kaas applies (the new, hash-named templates and the repointed KCP/MD) went through the real
    // webhooks in its server-side dry-run gate first.
    expect(`${r.stdout}\n${r.stderr}`).toMatch(/server dry-run/);
    current = sets;
    const kcp = await getObject(RES.kcp, `${CLUSTER}-control-plane`, NS);
    expect(kcp!.spec.version).toBe(NEXT_PATCH);
    const cpTemplate = await getObject(RES.osmt, kcp!.spec.machineTemplate.spec.infrastructureRef.name, NS);
    expect(cpTemplate!.spec.template.spec.image.filter.name).toBe(`ubuntu-capi-image-${NEXT_PATCH}`);
    const md = await getObject(RES.md, `${CLUSTER}-md-0`, NS);
    const mdTemplate = await getObject(RES.osmt, md!.spec.template.spec.infrastructureRef.name, NS);
    expect(mdTemplate!.spec.template.spec.image.filter.name).toBe(`ubuntu-capi-image-${NEXT_PATCH}`);
    // Review B2: the workers must not roll onto the new image while still labelled with the old version
    // (they would roll twice); CAPI's own preflight checks order the control plane first.
    expect(md!.spec.template.spec.version).toBe(NEXT_PATCH);
  });

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});

/** The testbed's Kubernetes version (the test's name is built when the file loads, inside the testbed run). */
function testbedVersion(): string {
  return process.env.KAAS_TESTBED_ENV ? testbed().k8sVersion : 'the testbed version';
}
