import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { renderAddons } from '../../../lib/cluster/create/create.js';
import { validateAgainstCrds } from '../../../lib/cluster/crd-validate.js';
import { dryRunFiles } from '../../../lib/cluster/create/output.js';
import { planCluster } from '../../../lib/cluster/plan.js';
import { clusterTemplateVariables, contentHash } from '../../../lib/cluster/render.js';
import type { KubeObject } from '../../../lib/render/documents.js';
import { validateObjects } from '../../../lib/render/schema.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { AMPHORA_PLAN, fakeCloud, OVN_PLAN, TEST_CLOUD } from './fake-cloud.js';

const GOLDEN = 'test/golden/cluster/example-demo';
const settingsOf = (cluster: string, sets: string[] = []) => loadSettings({ settingsDir: 'settings', env: 'example', cluster, environ: {}, sets, cwd: process.cwd() }).values;

async function planDemo(sets: string[] = []) {
  return planCluster({
    cluster: 'demo', settings: settingsOf('demo', sets), cloudConfig: TEST_CLOUD, cloud: fakeCloud(), lb: AMPHORA_PLAN, strict: true,
    tools: { cilium: true, helm: true }, readFile: () => '',
  });
}

const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS()).filter(Boolean);
const byKind = (objs: KubeObject[], kind: string) => objs.filter((o) => o.kind === kind);

describe('cluster rendering', () => {
  it('matches the golden files of the example environment (cluster demo), compared semantically', async () => {
    const plan = await planDemo();
    const addons = renderAddons(plan, TEST_CLOUD, AMPHORA_PLAN);
    const files = dryRunFiles(plan.objects, addons.bundled(), addons.cloudConf.text);
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(GOLDEN, { recursive: true });
      for (const f of files) writeFileSync(path.join(GOLDEN, f.name), f.text);
    }
    for (const f of files) {
      const golden = path.join(GOLDEN, f.name);
      expect(existsSync(golden)).toBe(true);
      const want = readFileSync(golden, 'utf8');
      if (f.name.endsWith('.yaml')) expect(docs(f.text)).toEqual(docs(want));
      else expect(f.text).toBe(want);
    }
  });

  it('resolves v1.33.x against the images and restricts the kube-API to the CIDRs plus the management host', async () => {
    const plan = await planDemo();
    expect(plan.decisions.image).toMatchObject({ kubernetesVersion: 'v1.33.4', image: 'ubuntu-capi-image-v1.33.4' });
    const [osc] = byKind(plan.objects, 'OpenStackCluster');
    expect((osc.spec as { apiServerLoadBalancer: unknown }).apiServerLoadBalancer).toEqual({
      enabled: true, provider: 'amphora', allowedCIDRs: ['192.0.2.10/32', '198.51.100.7/32', '203.0.113.0/24'],
    });
    expect(plan.checks.failures).toEqual([]);
  });

  it('puts only an application credential into the CAPO secret', async () => {
    const plan = await planDemo();
    const [secret] = byKind(plan.objects, 'Secret');
    const clouds = (secret as unknown as { stringData: Record<string, string> }).stringData['clouds.yaml'];
    expect(clouds).toContain('auth_type: v3applicationcredential');
    expect(clouds).toContain('application_credential_id: f0e1d2c3b4a5');
    expect(clouds).not.toMatch(/password/);
  });

  it('names machine templates by content: a flavor change gives a new name, the same input the same name', async () => {
    const a = await planDemo();
    const b = await planDemo();
    const c = await planDemo(['worker_flavor=SCS-2V-4']);
    const names = (p: typeof a) => byKind(p.objects, 'OpenStackMachineTemplate').map((o) => o.metadata.name);
    expect(names(a)).toEqual(names(b));
    expect(names(c)[0]).toBe(names(a)[0]);
    expect(names(c)[1]).not.toBe(names(a)[1]);
    const md = byKind(c.objects, 'MachineDeployment')[0] as unknown as { spec: { template: { spec: { infrastructureRef: { name: string } } } } };
    expect(md.spec.template.spec.infrastructureRef.name).toBe(names(c)[1]);
    // diskless SCS-2V-4 → root volume
    expect(JSON.stringify(byKind(c.objects, 'OpenStackMachineTemplate')[1].spec)).toContain('"rootVolume":{"sizeGiB":25}');
  });

  it('bumping worker_gen forces a new worker template even with the same spec', async () => {
    const a = byKind((await planDemo()).objects, 'OpenStackMachineTemplate')[1];
    const b = byKind((await planDemo(['worker_gen=genw02'])).objects, 'OpenStackMachineTemplate')[1];
    expect(a.spec).toEqual(b.spec);
    expect(contentHash(a)).not.toBe(contentHash(b));
  });

  it('identityRef is name + cloudName only: CAPO v0.12/v0.13 serve v1beta1 without identityRef.type', async () => {
    const plan = await planDemo();
    const spec = byKind(plan.objects, 'OpenStackCluster')[0].spec as { identityRef: Record<string, unknown> };
    expect(spec.identityRef).toEqual({ name: 'demo-cloud-config', cloudName: 'openstack' });
  });

  it('["none"] (SCS "exclusive internal access") keeps the floating IP and allows only the management host', async () => {
    const plan = await planDemo(['restrict_kubeapi=none']);
    const spec = byKind(plan.objects, 'OpenStackCluster')[0].spec as Record<string, unknown>;
    expect(spec).not.toHaveProperty('disableAPIServerFloatingIP');
    expect(spec.apiServerLoadBalancer).toEqual({ enabled: true, provider: 'amphora', allowedCIDRs: ['192.0.2.10/32'] });
  });

  it('[] leaves the kube-API open: no allowedCIDRs, provider left to Octavia', async () => {
    const plan = await planDemo(['restrict_kubeapi=[]']);
    const spec = byKind(plan.objects, 'OpenStackCluster')[0].spec as Record<string, unknown>;
    expect(spec.apiServerLoadBalancer).toEqual({ enabled: true });
  });

  it('OVN Service load balancers and a restricted kube-API together: the API LB is amphora with the CIDRs (issue 9)', async () => {
    const plan = await planCluster({
      cluster: 'demo', settings: settingsOf('demo', ['use_ovn_lb_provider=true']), cloudConfig: TEST_CLOUD, cloud: fakeCloud(), lb: OVN_PLAN, strict: true,
      tools: { cilium: true, helm: true }, readFile: () => '',
    });
    const spec = byKind(plan.objects, 'OpenStackCluster')[0].spec as Record<string, unknown>;
    expect(spec.apiServerLoadBalancer).toEqual({ enabled: true, provider: 'amphora', allowedCIDRs: ['192.0.2.10/32', '198.51.100.7/32', '203.0.113.0/24'] });
    // CAPO opens the NodePorts to the node subnet itself; OCCM lets clients in per Service (lib/plan/nodeports.ts).
    expect(plan.decisions.nodePortSources).toEqual([]);
  });
});

describe('bundled add-ons', () => {
  it('calico (use_cilium: false) gets the MTU and the pod CIDR, and every add-on passes the core schemas', async () => {
    const plan = await planDemo(['use_cilium=false', 'mtu=1400']);
    const addons = renderAddons(plan, TEST_CLOUD, AMPHORA_PLAN);
    expect(addons.bundled().map((a) => a.name)).toEqual(['occm', 'calico', 'cinder-csi', 'metrics-server']);
    const calico = addons.bundled().find((a) => a.name === 'calico')!.objects;
    const cm = calico.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> };
    expect(cm.data.veth_mtu).toBe('1400');
    expect(JSON.stringify(calico)).toContain('{"name":"CALICO_IPV4POOL_CIDR","value":"192.168.0.0/16"}');
    expect(calico.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name)).toContain('caliconodestatuses.crd.projectcalico.org');
    for (const a of addons.bundled()) {
      const r = await validateObjects(a.objects, `addon ${a.name}`);
      expect(r.validated.length).toBeGreaterThan(0);
    }
  });
});

describe('CRD validation (CAPI v1.12.11 / CAPO v0.14.7 schemas)', () => {
  const osc = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackCluster', metadata: { name: 'x', namespace: 'default' }, spec });

  it('accepts a minimal OpenStackCluster (identityRef.type defaulted as the API server does)', () => {
    expect(validateAgainstCrds([osc({ identityRef: { name: 's', cloudName: 'openstack' } })]).validated).toEqual(['OpenStackCluster/default/x']);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['the v1alpha7 spelling allowedCidrs', { identityRef: { name: 's', cloudName: 'c' }, apiServerLoadBalancer: { enabled: true, allowedCidrs: ['1.2.3.4/32'] } }, /apiServerLoadBalancer must NOT have additional properties \(allowedCidrs\)/],
    ['v1alpha7 cloudName at the top', { cloudName: 'c', identityRef: { name: 's', cloudName: 'c' } }, /additional properties \(cloudName\)/],
    ['identityRef without cloudName', { identityRef: { name: 's' } }, /identityRef must have required property 'cloudName'/],
    ['managedSecurityGroups as a bool (v1alpha7)', { identityRef: { name: 's', cloudName: 'c' }, managedSecurityGroups: true }, /managedSecurityGroups must be object/],
  ])('rejects %s', (_n, spec, problem) => {
    try {
      validateAgainstCrds([osc(spec)]);
      throw new Error('accepted');
    } catch (e) {
      expect((e as { problems: string[] }).problems.join('\n')).toMatch(problem);
    }
  });

  it('skips kinds without a bundled schema', () => {
    expect(validateAgainstCrds([{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }]).skipped).toEqual(['Secret/s']);
  });
});

describe('--list-variables', () => {
  it('lists the variables of each template', () => {
    const vars = clusterTemplateVariables();
    expect(vars.map((v) => v.file)[0]).toBe('cluster/10-cloud-secret.yaml.hbs');
    expect(vars.find((v) => v.file.includes('openstackcluster'))?.variables).toEqual(['api', 'availabilityZone', 'cluster', 'identity', 'namespace', 'network', 'tags']);
  });
});
