import { planEdgeLb, type EdgeSettings } from '../../../lib/plan/edge.js';
import { chooseFlavor, chooseImage, defaultImageName } from '../../../lib/plan/machines.js';
import { planServerGroups, serverGroupNames } from '../../../lib/plan/server-groups.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

/** Whole decisions (value, reasons, warnings) as the user sees them printed. */
const AMPHORA: LoadBalancerPlan = { provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: true, reasons: [] };
const OVN: LoadBalancerPlan = { provider: 'ovn', ovn: true, cloudConf: { 'create-monitor': 'true' }, proxyProtocolPossible: false, kubeApiAllowedCidrs: true, reasons: [] };
const s = (o: Partial<EdgeSettings> = {}): EdgeSettings => ({ useProxy: false, nodeCidr: '10.8.0.0/20', occm: {}, ...o });
const MON = 'loadbalancer.openstack.org/enable-health-monitor';
const PRX = 'loadbalancer.openstack.org/proxy-protocol';
const NO_PROXY_ANNOTATION = 'amphora load balancer without PROXY protocol: the health-monitor annotation only (externalTrafficPolicy: Local needs it).';
const OVN_REASON = 'OVN load balancer: health monitors (TCP) come from cloud.conf create-monitor=true; OVN keeps client IPs without PROXY protocol.';

describe('planEdgeLb: whole decisions', () => {
  it.each<[string, LoadBalancerPlan, EdgeSettings, object, string[]]>([
    ['amphora + PROXY', AMPHORA, s({ useProxy: true, nodeCidr: '10.20.0.0/16' }), {
      provider: 'amphora', annotations: { [MON]: 'true', [PRX]: 'true' }, cloudConf: { 'enable-ingress-hostname': 'true' }, proxyProtocol: true,
      monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: true, trustedProxyCidrs: ['10.20.0.0/16'],
    }, [
      'amphora load balancer with PROXY protocol: health-monitor and proxy-protocol annotations; the amphorae send the PROXY header from their own ports in 10.20.0.0/16 (node_cidr; never from the VIP), the only source ingress-nginx takes a client address from.',
      'cloud.conf enable-ingress-hostname=true, so that pods inside the cluster still reach the edge through the LB (hairpin with PROXY protocol).',
    ]],
    ['amphora without PROXY', AMPHORA, s(), {
      provider: 'amphora', annotations: { [MON]: 'true' }, cloudConf: {}, proxyProtocol: false, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: false,
    }, [NO_PROXY_ANNOTATION]],
    ['amphora, create-monitor in occm_loadbalancer', AMPHORA, s({ occm: { 'create-monitor': true } }), {
      provider: 'amphora', annotations: {}, cloudConf: {}, proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: false,
    }, ['amphora load balancer without PROXY protocol: create-monitor is on in cloud.conf, so no annotation is needed.']],
    ['amphora, create-monitor "yes" in the plan\'s cloud.conf', { ...AMPHORA, cloudConf: { 'create-monitor': 'yes' } }, s(), { monitor: 'cloud.conf create-monitor', annotations: {} },
      ['amphora load balancer without PROXY protocol: create-monitor is on in cloud.conf, so no annotation is needed.']],
    // Monitors explicitly off: no monitor, so externalTrafficPolicy: Cluster (Local would half-work).
    ['amphora, create-monitor "false" is off', AMPHORA, s({ occm: { 'create-monitor': 'false' } }), { monitor: 'none', externalTrafficPolicy: 'Cluster', annotations: {} },
      ['No health monitor (occm_loadbalancer create-monitor is false): externalTrafficPolicy: Cluster, because under Local Octavia keeps sending to nodes that run no proxy pod. The proxy sees node addresses, not client IPs (nginx_use_proxy keeps them with PROXY protocol).']],
    ['amphora, create-monitor "1" is on', AMPHORA, s({ occm: { 'create-monitor': '1' } }), { monitor: 'cloud.conf create-monitor' },
      ['amphora load balancer without PROXY protocol: create-monitor is on in cloud.conf, so no annotation is needed.']],
    ['a provider without PROXY pools, PROXY asked', { ...AMPHORA, proxyProtocolPossible: false }, s({ useProxy: true }), { proxyProtocol: false, monitor: 'service annotation' },
      ['PROXY protocol not possible with provider amphora.', NO_PROXY_ANNOTATION]],
    ['ovn, PROXY asked', OVN, s({ useProxy: true }), {
      provider: 'ovn', annotations: {}, cloudConf: {}, proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: true,
    }, [OVN_REASON, 'PROXY protocol not used: the ovn provider has no PROXY pools, and needs none to keep client IPs.']],
    ['ovn', OVN, s(), { provider: 'ovn', proxyProtocol: false, clientIpKept: true }, [OVN_REASON]],
  ])('%s', (_n, lb, settings, value, reasons) => {
    const d = planEdgeLb(settings, lb);
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(d.value).toMatchObject(value);
    expect(d.reasons).toEqual(reasons);
    expect(d.warnings).toEqual([]);
  });

  it('PROXY without node_cidr: the whole refusal', () => {
    expect(planEdgeLb(s({ useProxy: true, nodeCidr: '' }), AMPHORA)).toEqual({
      ok: false, reasons: [],
      refusals: [{ message: 'nginx_use_proxy is true but node_cidr is empty: the proxy would not know which PROXY-protocol source to trust', hint: 'set node_cidr (the subnet of the cluster nodes), or nginx_use_proxy: false' }],
    });
  });
});

describe('server groups: names, reasons and refusals', () => {
  it('names', () => expect(serverGroupNames('k8s', 'prod')).toEqual({ controller: 'k8s-prod-controller', worker: 'k8s-prod-worker' }));

  it.each([
    [false, ['control plane: hard anti-affinity (each control-plane node on its own host)', 'workers: soft anti-affinity (spread when hosts allow)']],
    [true, ['control plane: soft anti-affinity (soft_anti_affinity_controller is true)', 'workers: soft anti-affinity (spread when hosts allow)']],
  ])('soft controller %s: reasons', (softController, reasons) => {
    expect(planServerGroups({ cluster: 'demo', prefix: 'capi', antiAffinity: true, softController, existing: [] }).reasons).toEqual(reasons);
  });

  it('anti_affinity false: no groups, and why', () => {
    expect(planServerGroups({ cluster: 'demo', prefix: 'capi', antiAffinity: false, softController: false, existing: [{ id: 'x', name: 'capi-demo-worker', policy: 'affinity' }] }))
      .toEqual({ ok: true, value: [], reasons: ['anti_affinity is false: no server groups, Nova may place nodes on the same host'], warnings: [] });
  });

  it('duplicates: ids sorted, with the hint', () => {
    const d = planServerGroups({ cluster: 'demo', prefix: 'capi', antiAffinity: true, softController: false, existing: [
      { id: 'b', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }, { id: 'a', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }, { id: 'c', name: 'other', policy: 'anti-affinity' },
    ] });
    expect(!d.ok && d.refusals).toEqual([{ message: '2 server groups are named capi-demo-worker (ids a, b)', hint: 'delete the extra ones: openstack server group delete <id>' }]);
  });

  it('another policy: the refusal and its hint', () => {
    const d = planServerGroups({ cluster: 'demo', prefix: 'capi', antiAffinity: true, softController: true, existing: [{ id: 'g', name: 'capi-demo-controller', policy: 'anti-affinity' }] });
    expect(!d.ok && d.refusals).toEqual([{
      message: 'server group capi-demo-controller exists with policy anti-affinity, but soft-anti-affinity is wanted',
      hint: 'Nova cannot change a policy: delete the group (after the cluster) or change soft_anti_affinity_controller back',
    }]);
  });
});

describe('machines: whole decisions', () => {
  it('the SCS image name', () => expect(defaultImageName('v1.33.4')).toBe('ubuntu-capi-image-v1.33.4'));

  it.each<[string, string, string, string[] | undefined, object]>([
    ['vX.Y.x ignores names that only look similar', 'v1.33.x', '', ['ubuntu-capi-image-v1.33.2', 'ubuntu-capi-image-v1.33.x', 'xubuntu-capi-image-v1.33.9', 'ubuntu-capi-image-v1.33.9-old', 'ubuntu-capi-image-v1.330.9'],
      { ok: true, value: { kubernetesVersion: 'v1.33.2', image: 'ubuntu-capi-image-v1.33.2' }, reasons: ['kubernetes_version v1.33.x resolved to v1.33.2 (newest image ubuntu-capi-image-v1.33.2)'] }],
    ['a full version not checked offline says so', 'v1.33.4', '', undefined,
      { ok: true, value: { kubernetesVersion: 'v1.33.4', image: 'ubuntu-capi-image-v1.33.4' }, reasons: ['image ubuntu-capi-image-v1.33.4 not checked (cloud not asked)'] }],
    ['a full version found has no reason to print', 'v1.33.4', '', ['ubuntu-capi-image-v1.33.4'], { ok: true, reasons: [] }],
    ['a missing image lists the CAPI images found, sorted', 'v1.33.5', '', ['ubuntu-capi-image-v1.33.4', 'debian', 'ubuntu-capi-image-v1.32.1'],
      { ok: false, refusals: [{ message: 'image ubuntu-capi-image-v1.33.5 does not exist in the cloud', hint: 'images found: ubuntu-capi-image-v1.32.1, ubuntu-capi-image-v1.33.4' }] }],
    ['a missing image on a cloud without CAPI images', 'v1.33.5', '', ['debian'],
      { ok: false, refusals: [{ message: 'image ubuntu-capi-image-v1.33.5 does not exist in the cloud', hint: 'upload a Cluster API node image (image-builder)' }] }],
    ['not a version', '1.33.4', '', [], { ok: false, refusals: [{ message: 'kubernetes_version "1.33.4" is not vX.Y.Z or vX.Y.x', hint: 'e.g. kubernetes_version: v1.33.4' }] }],
    ['vX.Y.x offline', 'v1.33.x', '', undefined, { ok: false, refusals: [{ message: 'kubernetes_version v1.33.x needs the cloud\'s image list to find the newest patch release', hint: 'set a full version (--set kubernetes_version=v1.33.<patch>) or give kaas access to the cloud' }] }],
    ['vX.Y.x without images', 'v1.34.x', '', ['ubuntu-capi-image-v1.33.4'], { ok: false, refusals: [{ message: 'no image ubuntu-capi-image-v1.34.<patch> in the cloud', hint: 'upload a Cluster API node image (image-builder) or set image and a full kubernetes_version' }] }],
    ['vX.Y.x with image', 'v1.34.x', 'mine', [], { ok: false, refusals: [{ message: 'kubernetes_version v1.34.x cannot be resolved when image is set explicitly (mine)', hint: 'set a full kubernetes_version, e.g. v1.33.4' }] }],
  ])('image: %s', (_n, version, image, images, want) => {
    expect(chooseImage(version, image, images)).toMatchObject(want);
  });

  it.each<[string, string, number, { name: string; disk?: number }[] | undefined, object]>([
    ['offline diskless SCS name', 'SCS-4V-8', 30, undefined, { ok: true, value: { flavor: 'SCS-4V-8', rootVolumeGiB: 30 }, reasons: ['worker flavor SCS-4V-8 not checked (cloud not asked); its SCS name says diskless', 'worker flavor SCS-4V-8 is diskless: root volume of 30 GiB'] }],
    ['offline SCS name with disk', 'SCS-4V-8-50s', 30, undefined, { ok: true, value: { flavor: 'SCS-4V-8-50s', rootVolumeGiB: 0 }, reasons: ['worker flavor SCS-4V-8-50s not checked (cloud not asked); its SCS name says 50 GB disk'] }],
    ['offline SCS name, lowercase', 'scs-2v-4-20', 30, undefined, { ok: true, value: { rootVolumeGiB: 0 } }],
    ['offline other name', 'm1', 30, undefined, { ok: true, value: { flavor: 'm1', rootVolumeGiB: 0 }, reasons: ['worker flavor m1 not checked (cloud not asked); assumed to have a disk'] }],
    ['a listed flavor without disk field is diskless', 'f', 20, [{ name: 'f' }], { ok: true, value: { flavor: 'f', rootVolumeGiB: 20 }, reasons: ['worker flavor f is diskless: root volume of 20 GiB'] }],
    ['a listed flavor with a disk', 'f', 20, [{ name: 'f', disk: 1 }], { ok: true, value: { rootVolumeGiB: 0 }, reasons: [] }],
    ['missing, no SCS flavors', 'x', 30, [{ name: 'a' }], { ok: false, refusals: [{ message: 'worker flavor x does not exist in the cloud', hint: 'openstack flavor list' }] }],
    ['diskless and root disk 0', 'f', 0, [{ name: 'f', disk: 0 }], { ok: false, refusals: [{ message: 'worker flavor f has no disk and worker_root_disk is 0', hint: 'set worker_root_disk (GiB) or choose a flavor with a disk' }] }],
  ])('flavor: %s', (_n, flavor, root, flavors, want) => {
    expect(chooseFlavor('worker', flavor, root, flavors)).toMatchObject(want);
  });

  it('a missing flavor lists at most 12 SCS flavors, sorted', () => {
    const flavors = Array.from({ length: 15 }, (_, i) => ({ name: `SCS-${String(i + 10)}V-8` }));
    const d = chooseFlavor('controller', 'nope', 30, [...flavors].reverse());
    expect(!d.ok && d.refusals[0].hint).toBe(`flavors found include: ${flavors.slice(0, 12).map((f) => f.name).join(', ')}`);
  });
});
