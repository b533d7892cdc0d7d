import { renderAddons } from '../../../lib/cluster/create/create.js';
import { CLOUD_CONFIG_HASH_ANNOTATION, cloudConfigConsumers, cloudConfigHash } from '../../../lib/state/cloud-config-rollout.js';
import { planCluster } from '../../../lib/cluster/plan.js';
import { PROVIDERS } from '../../../lib/plan/providers.js';
const OVN_CLOUD_CONF = PROVIDERS.ovn.cloudConf;
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';
import type { KubeObject } from '../../../lib/render/documents.js';
import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { AMPHORA_PLAN, fakeCloud, TEST_CLOUD } from './fake-cloud.js';

/**
 * What the add-ons carry of cloud.conf: the cloud-config Secret, the hash on the pod templates of
 * its consumers (so a change rolls them, and no change rolls nothing), ca-file only with the CA in
 * the Secret, no forced floating network, and the Cinder CSI arguments per plugin version.
 */

const OVN_PLAN: LoadBalancerPlan = {
  provider: 'ovn', ovn: true, cloudConf: { ...OVN_CLOUD_CONF }, proxyProtocolPossible: false, kubeApiAllowedCidrs: true,
  reasons: ['OVN chosen (test)'],
};

const settingsOf = (sets: string[]) => loadSettings({ settingsDir: 'settings', env: 'example', cluster: 'demo', environ: {}, sets, cwd: process.cwd() }).values;

async function rendered(o: { sets?: string[]; lb?: LoadBalancerPlan; cloud?: CloudConfig; readFile?: (p: string) => string } = {}) {
  const cloud = o.cloud ?? TEST_CLOUD;
  const lb = o.lb ?? AMPHORA_PLAN;
  const plan = await planCluster({
    cluster: 'demo', settings: settingsOf(['nginx_use_proxy=false', ...(o.sets ?? [])]), cloudConfig: cloud, cloud: fakeCloud(), lb, strict: true,
    tools: { cilium: true, helm: true }, readFile: o.readFile ?? (() => ''),
  });
  const addons = renderAddons(plan, cloud, lb);
  const all = addons.bundled().flatMap((a) => a.objects);
  const find = (kind: string, name: string) => all.find((x) => x.kind === kind && x.metadata.name === name) as KubeObject & Record<string, any>;
  const secret = find('Secret', 'cloud-config') as unknown as { stringData: Record<string, string> };
  const hashes = [['DaemonSet', 'openstack-cloud-controller-manager'], ['Deployment', 'csi-cinder-controllerplugin'], ['DaemonSet', 'csi-cinder-nodeplugin']]
    .map(([k, n]) => find(k, n)?.spec.template.metadata.annotations?.[CLOUD_CONFIG_HASH_ANNOTATION] as string | undefined);
  const pluginArgs = (kind: string, name: string) => (find(kind, name).spec.template.spec.containers as { name: string; args: string[] }[]).find((c) => c.name === 'cinder-csi-plugin')!.args;
  return { plan, addons, secret, hashes, pluginArgs, osc: plan.objects.find((x) => x.kind === 'OpenStackCluster') as KubeObject & Record<string, any> };
}

describe('cloud.conf reaches the controllers', () => {
  it('switching use_ovn_lb_provider changes the Secret and the hash on OCCM and both Cinder CSI pod templates', async () => {
    const amphora = await rendered();
    const ovn = await rendered({ lb: OVN_PLAN });
    expect(amphora.secret.stringData['cloud.conf']).not.toContain('lb-provider=ovn');
    expect(ovn.secret.stringData['cloud.conf']).toContain('lb-provider=ovn');
    expect(new Set(amphora.hashes).size).toBe(1);
    expect(new Set(ovn.hashes).size).toBe(1);
    expect(amphora.hashes[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ovn.hashes[0]).not.toBe(amphora.hashes[0]);
    // The hash is the Secret's content hash: kaas can compare a live Secret with a pod template.
    expect(ovn.hashes[0]).toBe(cloudConfigHash(ovn.secret.stringData));
  });

  it('an unchanged cloud.conf renders the same Secret and annotations (server-side apply changes nothing, nothing restarts)', async () => {
    const a = await rendered();
    const b = await rendered();
    expect(b.secret).toEqual(a.secret);
    expect(b.hashes).toEqual(a.hashes);
    expect(JSON.stringify(b.addons.bundled())).toBe(JSON.stringify(a.addons.bundled()));
  });

  it('the hash never shows the secret it covers', async () => {
    const { addons } = await rendered();
    const workloads = addons.bundled().flatMap((x) => x.objects).filter((o) => o.kind !== 'Secret');
    expect(JSON.stringify(workloads)).not.toContain('test-appcred-secret-value');
  });

  it.each([
    [['deploy_occm=true', 'deploy_cindercsi=true'], ['daemonset/openstack-cloud-controller-manager', 'deployment/csi-cinder-controllerplugin', 'daemonset/csi-cinder-nodeplugin']],
    [['deploy_occm=true', 'deploy_cindercsi=false'], ['daemonset/openstack-cloud-controller-manager']],
    [['deploy_occm=false', 'deploy_cindercsi=v1.33.0'], ['deployment/csi-cinder-controllerplugin', 'daemonset/csi-cinder-nodeplugin']],
  ])('with %j the rollout waits for %j', async (sets, consumers) => {
    const { plan } = await rendered({ sets });
    expect(cloudConfigConsumers(plan.addons.steps)).toEqual(consumers);
  });
});

describe('cloud.conf [Global] TLS and the CA in the Secret', () => {
  const CA = '-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n';
  it.each<[string, Partial<CloudConfig>, { caFile: boolean; insecure: boolean; caInSecret: boolean }]>([
    ['verify on, cacert set: ca-file names the CA mounted from the Secret', { cacert: '/etc/ca.pem', verify: true }, { caFile: true, insecure: false, caInSecret: true }],
    ['verify: false with a cacert: tls-insecure, no ca-file, no CA in the Secret', { cacert: '/etc/ca.pem', verify: false }, { caFile: false, insecure: true, caInSecret: false }],
    ['verify: false without cacert: tls-insecure only', { verify: false }, { caFile: false, insecure: true, caInSecret: false }],
    ['no cacert: neither', { verify: true }, { caFile: false, insecure: false, caInSecret: false }],
  ])('%s', async (_name, tls, want) => {
    const cloud: CloudConfig = { ...TEST_CLOUD, ...tls };
    const { secret } = await rendered({ cloud, readFile: () => CA });
    const conf = secret.stringData['cloud.conf'];
    expect(/^ca-file=\/etc\/config\/ca\.crt$/m.test(conf)).toBe(want.caFile);
    expect(/^tls-insecure=true$/m.test(conf)).toBe(want.insecure);
    expect(secret.stringData['ca.crt'] === CA).toBe(want.caInSecret);
    // Whatever the case: ca-file exactly when ca.crt is in the Secret.
    expect(/^ca-file=/m.test(conf)).toBe('ca.crt' in secret.stringData);
  });
});

describe('no forced floating network', () => {
  it('cloud.conf has no floating-network-id (OCCM picks the external network), even with external_network set', async () => {
    const { secret } = await rendered({ sets: ['external_network=ext01'] });
    expect(secret.stringData['cloud.conf']).not.toMatch(/floating-network-id/);
  });

  it('keeps a floating-network-id the user sets in occm_loadbalancer', async () => {
    const { secret } = await rendered({ sets: ['occm_loadbalancer={"manage-security-groups": true, "floating-network-id": "5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa"}'] });
    expect(secret.stringData['cloud.conf']).toMatch(/^floating-network-id=5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa$/m);
  });
});

describe('Cinder CSI arguments per plugin version', () => {
  it.each([
    ['v1.33.0', ['--provide-node-service=false'], ['--provide-controller-service=false']],
    ['v1.30.0', ['--provide-node-service=false'], ['--provide-controller-service=false']],
    ['v1.29.2', [], []],
  ])('cinder-csi-plugin %s: controller %j, node %j', async (version, controller, node) => {
    const { pluginArgs } = await rendered({ sets: [`deploy_cindercsi=${version}`] });
    const base = ['/bin/cinder-csi-plugin', '--endpoint=$(CSI_ENDPOINT)', '--cloud-config=$(CLOUD_CONFIG)'];
    expect(pluginArgs('Deployment', 'csi-cinder-controllerplugin')).toEqual([...base, '--cluster=$(CLUSTER_NAME)', ...controller, '--v=1']);
    expect(pluginArgs('DaemonSet', 'csi-cinder-nodeplugin')).toEqual([...base, ...node, '--v=1']);
  });
});

describe('OVN NodePort rules on the workers', () => {
  const rules = (osc: Record<string, any>) =>
    ((osc.spec.managedSecurityGroups.workerNodesSecurityGroupRules ?? []) as { protocol: string; remoteIPPrefix: string; portRangeMin: number; portRangeMax: number }[])
      .map((r) => `${r.protocol} ${r.portRangeMin}-${r.portRangeMax} from ${r.remoteIPPrefix}`);

  it.each<[string, string[], LoadBalancerPlan, string[]]>([
    ['amphora: none', [], AMPHORA_PLAN, []],
    // CAPO already opens the worker NodePorts to the cluster subnet (getSGWorkerNodePortCIDR): no duplicate rule.
    ['OVN with OCCM managing security groups: no rule of kaas\'s', [], OVN_PLAN, []],
    ['OVN plus ovn_nodeport_cidrs', ['ovn_nodeport_cidrs=[198.51.100.0/24]'], OVN_PLAN,
      ['tcp 30000-32767 from 198.51.100.0/24', 'udp 30000-32767 from 198.51.100.0/24']],
    ['OVN without manage-security-groups: open to all (OCCM lets no client in)', ['occm_loadbalancer={"manage-security-groups": false}'], OVN_PLAN,
      ['tcp 30000-32767 from 0.0.0.0/0', 'udp 30000-32767 from 0.0.0.0/0']],
  ])('%s', async (_name, sets, lb, want) => {
    const { osc, plan } = await rendered({ sets, lb });
    expect(rules(osc)).toEqual(want);
    if (lb.ovn) expect(plan.reasons.join('\n')).toMatch(/NodePorts reachable from node_cidr 10\.8\.0\.0\/20 through CAPO's own rule/);
  });
});
