import {
  etpLocalNoMonitor, ingressNginxK8sUnsupported, ingressNginxRetired, lbOrphaned, occmConfigContradictsPlan, occmConfigDrift, occmConfigMissing,
  occmClusterNameDiffers, occmNotRestarted, proxyHostnameMissing, proxyProtocolMismatch, sgOrphaned,
} from '../../../lib/checks/cluster-checks.js';
import { clusterNames } from '../../../lib/plan/cluster-model.js';
import { runChecks } from '../../../lib/checks/check.js';
import { DOCTOR_CHECKS } from '../../../lib/checks/catalogue.js';
import { AMPHORA, cloud, input, kube, lb, OVN, svc } from './inputs.js';

const MON = 'loadbalancer.openstack.org/enable-health-monitor';
const PROXY = 'loadbalancer.openstack.org/proxy-protocol';
const conf = (lbSection: string) => ({ text: `[Global]\nauth-url=https://k.example/v3\n[LoadBalancer]\n${lbSection}` });

describe('cluster-side checks', () => {
  it.each([
    ['amphora, ETP Local, no annotation, no create-monitor', 'manage-security-groups=true\n', {}, 'Local', /annotate service -n app web --overwrite loadbalancer.openstack.org\/enable-health-monitor=true/],
    ['amphora, ETP Local, annotation "false" beats create-monitor', 'create-monitor=true\n', { [MON]: 'false' }, 'Local', /annotate/],
    ['ovn, ETP Local, no create-monitor', 'lb-provider=ovn\nlb-method=SOURCE_IP_PORT\n', {}, 'Local', /create-monitor: "true"/],
    ['amphora, ETP Local, annotation true', '', { [MON]: 'true' }, 'Local', undefined],
    ['amphora, ETP Local, create-monitor=yes (gcfg bool)', 'create-monitor=yes\n', {}, 'Local', undefined],
    ['amphora, ETP Cluster, no monitor', '', {}, 'Cluster', undefined],
  ])('etp-local-no-monitor: %s', (_, lbConf, annotations, etp, fix) => {
    const f = etpLocalNoMonitor.run(input({ kube: kube({ cloudConf: conf(lbConf), services: [svc('app', 'web', { annotations, etp })] }) }));
    if (!fix) expect(f).toEqual([]);
    else {
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ check: 'etp-local-no-monitor', severity: 'error', resource: { type: 'service', id: 'app/web', name: 'web' } });
      expect(f[0].fix).toMatch(fix);
    }
  });

  const ing = (annotations: Record<string, string>, ingress: { ip?: string; hostname?: string; ipMode?: string }[] = [{ hostname: '203.0.113.45.nip.io' }]) =>
    svc('ingress-nginx', 'ingress-nginx-controller', { annotations, etp: 'Local', ingress });
  it.each([
    ['LB sends PROXY, nginx does not expect it', { [PROXY]: 'true' }, { 'use-proxy-protocol': 'false' }, 'enable-ingress-hostname=true\n', /does not expect them/],
    ['nginx expects PROXY, LB sends none', {}, { 'use-proxy-protocol': 'true' }, '', /sends none/],
    ['PROXY asked of ovn', { [PROXY]: 'true' }, { 'use-proxy-protocol': 'true' }, 'lb-provider=ovn\n', /ovn provider does not have/],
    ['both on (v2 counts as on)', { [PROXY]: 'v2' }, { 'use-proxy-protocol': 'true' }, '', undefined],
    ['both off', {}, {}, '', undefined],
  ])('proxy-protocol-mismatch: %s', (_, annotations, cm, lbConf, msg) => {
    const f = proxyProtocolMismatch.run(input({ kube: kube({ cloudConf: conf(lbConf), ingressConfig: cm, services: [ing(annotations)] }) }));
    if (!msg) expect(f).toEqual([]);
    else expect(f.map((x) => x.message)).toEqual([expect.stringMatching(msg)]);
  });

  const ENVOY_LABELS = { 'app.kubernetes.io/managed-by': 'envoy-gateway', 'gateway.envoyproxy.io/owning-gateway-name': 'kaas', 'gateway.envoyproxy.io/owning-gateway-namespace': 'envoy-gateway-system' };
  const envoySvc = (annotations: Record<string, string>) => {
    const s = svc('envoy-gateway-system', 'envoy-envoy-gateway-system-kaas-6e5e4f7a', { annotations, etp: 'Local', ingress: [{ hostname: '203.0.113.45.nip.io' }] });
    s.metadata.labels = { ...ENVOY_LABELS };
    return s;
  };
  const ctp = (spec: object, name = 'kaas', namespace = 'envoy-gateway-system') => ({ metadata: { name, namespace }, spec });
  const onGateway = { targetRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'kaas' }] };
  it.each([
    ['LB sends PROXY, no ClientTrafficPolicy reads it', { [PROXY]: 'true' }, [], /^The load balancer of Service envoy-gateway-system\/envoy-\S+ sends PROXY headers \(Service annotation\) but Envoy \(Gateway envoy-gateway-system\/kaas\) does not expect them/],
    ['ClientTrafficPolicy proxyProtocol, LB sends none', {}, [ctp({ ...onGateway, proxyProtocol: {} })], /^Envoy \(Gateway envoy-gateway-system\/kaas\) expects PROXY headers but the load balancer/],
    ['the deprecated enableProxyProtocol counts', {}, [ctp({ targetRef: { kind: 'Gateway', name: 'kaas' }, enableProxyProtocol: true })], /expects PROXY headers/],
    ['a policy on another Gateway does not count', { [PROXY]: 'true' }, [ctp({ targetRefs: [{ kind: 'Gateway', name: 'other' }], proxyProtocol: {} })], /does not expect them/],
    ['a policy in another namespace does not count', { [PROXY]: 'true' }, [ctp({ ...onGateway, proxyProtocol: {} }, 'kaas', 'apps')], /does not expect them/],
    ['both on', { [PROXY]: 'true' }, [ctp({ ...onGateway, proxyProtocol: {} })], undefined],
    ['both off', {}, [ctp(onGateway)], undefined],
    ['proxyProtocol optional: either works', {}, [ctp({ ...onGateway, proxyProtocol: { optional: true } })], undefined],
  ])('proxy-protocol-mismatch on the envoy Service of Envoy Gateway: %s', (_, annotations, policies, msg) => {
    const f = proxyProtocolMismatch.run(input({ kube: kube({ cloudConf: conf('enable-ingress-hostname=true\n'), services: [envoySvc(annotations)], clientTrafficPolicies: policies }) }));
    if (!msg) expect(f).toEqual([]);
    else {
      expect(f.map((x) => x.message)).toEqual([expect.stringMatching(msg)]);
      expect(f[0].fix).toMatch(/^kaas apply-gateway demo/);
    }
  });

  it('etp-local-no-monitor names the envoy Service like any other', () => {
    const f = etpLocalNoMonitor.run(input({ kube: kube({ cloudConf: conf(''), services: [envoySvc({ [PROXY]: 'true' })] }) }));
    expect(f.map((x) => x.resource.id)).toEqual(['envoy-gateway-system/envoy-envoy-gateway-system-kaas-6e5e4f7a']);
  });

  it.each([
    ['PROXY, plain IP, no workaround', '', {}, [{ ip: '203.0.113.45' }], 1],
    ['PROXY, IP with ipMode Proxy (OCCM ≥ v1.30)', '', {}, [{ ip: '203.0.113.45', ipMode: 'Proxy' }], 0],
    ['PROXY, enable-ingress-hostname=true', 'enable-ingress-hostname=true\n', {}, [{ ip: '203.0.113.45' }], 0],
    ['PROXY, hostname annotation', '', { 'loadbalancer.openstack.org/hostname': 'ingress.example.com' }, [{ ip: '203.0.113.45' }], 0],
  ])('proxy-hostname-missing: %s', (_, lbConf, extra, ingress, n) => {
    const f = proxyHostnameMissing.run(input({ kube: kube({ cloudConf: conf(lbConf), services: [ing({ [PROXY]: 'true', ...extra }, ingress)] }) }));
    expect(f).toHaveLength(n);
  });

  it('occm-config-missing and -contradicts-plan: no Secret is one error; a contradicting one names each problem', () => {
    expect(occmConfigMissing.run(input({ kube: kube() })).map((f) => f.check)).toEqual(['occm-config-missing']);
    const f = occmConfigContradictsPlan.run(input({ lb: OVN, kube: kube({ cloudConf: conf('lb-provider=ovn\n') }) }));
    expect(f.map((x) => x.message)).toEqual([
      expect.stringMatching(/^The plan uses OVN, but OCCM's cloud.conf has lb-method=\(unset: ROUND_ROBIN\)/),
      expect.stringMatching(/relies on cloud.conf create-monitor=true/),
    ]);
  });

  it('occm-config-drift: lists the differing keys, masks secrets, and is silent when equal', () => {
    const expected = '[Global]\nauth-url=https://k.example/v3\napplication-credential-secret="new"\n[LoadBalancer]\nmanage-security-groups=true\n';
    const live = '[Global]\nauth-url=https://k.example/v3\napplication-credential-secret="old"\n[LoadBalancer]\nmanage-security-groups=false\nuse-octavia=true\n';
    const f = occmConfigDrift.run(input({ expectedCloudConf: expected, kube: kube({ cloudConf: { text: live } }) }));
    expect(f[0].message).toBe("OCCM's live cloud.conf differs from what kaas renders now: global.application-credential-secret: (a different secret) → (a different secret); loadbalancer.manage-security-groups: false → true; loadbalancer.use-octavia: true → (unset).");
    expect(f[0].message).not.toMatch(/old|new/);
    expect(occmConfigDrift.run(input({ expectedCloudConf: expected, kube: kube({ cloudConf: { text: expected } }) }))).toEqual([]);
  });

  it.each([
    ['a pod started before the Secret changed', '2026-05-01T10:00:00Z', ['2026-05-01T09:00:00Z', '2026-05-01T11:00:00Z'], 1],
    ['every pod started after', '2026-05-01T10:00:00Z', ['2026-05-01T10:00:01Z'], 0],
    ['change time unknown', undefined, ['2026-05-01T09:00:00Z'], 0],
  ])('occm-not-restarted: %s', (_, changedAt, occmStartedAt, n) => {
    expect(occmNotRestarted.run(input({ kube: kube({ cloudConf: { text: '', changedAt }, occmStartedAt }) }))).toHaveLength(n);
  });

  it.each([
    ['the same as the settings give', '', 'demo', undefined],
    ['not knowable (valueFrom)', '', undefined, undefined],
    ['placed in namespace staging by hand, no namespace setting', '', 'staging-demo', 'set `namespace: staging` in the environment file (kaas then derives staging-demo), if the cluster\'s objects are in namespace staging on the management cluster'],
    ['a namespace setting, but OCCM got the plain name', 'staging', 'demo', 'remove the `namespace` setting (or set it to demo or default): OCCM was given the plain cluster name'],
    ['OCCM\'s default name (no --cluster-name flag)', '', 'kubernetes', 'OCCM\'s name is not one kaas derives from a namespace: kaas\'s commands will not find these load balancers; the doctor follows OCCM'],
  ])('occm-cluster-name: %s', (_, namespace, occmClusterName, fix) => {
    const f = occmClusterNameDiffers.run(input({ names: clusterNames(namespace, 'demo'), kube: kube({ occmClusterName }) }));
    expect(f.map((x) => x.fix)).toEqual(fix === undefined ? [] : [fix]);
    if (fix) expect(f[0].message).toBe(`OCCM runs with --cluster-name ${occmClusterName}, but kaas's settings give ${clusterNames(namespace, 'demo').occmCluster}: its load balancers are named kube_service_${occmClusterName}_<namespace>_<service> (the doctor follows OCCM), while apply-ingress/apply-gateway verification and check-lb look for kube_service_${clusterNames(namespace, 'demo').occmCluster}_<namespace>_<service>.`);
  });

  it('the live OCCM cluster-name decides which LBs are the cluster\'s (lb-orphaned follows it)', () => {
    const i = input({
      cloud: cloud({ loadBalancers: [lb('kube_service_staging-demo_app_gone'), lb('kube_service_demo_app_gone')] }),
      kube: kube({ services: [], occmClusterName: 'staging-demo' }),
    });
    expect(lbOrphaned.run(i).map((f) => f.resource.name)).toEqual(['kube_service_staging-demo_app_gone']);
    expect(lbOrphaned.run({ ...i, kube: kube({ services: [] }) }).map((f) => f.resource.name)).toEqual(['kube_service_demo_app_gone']);
  });

  it.each([
    ['v1.15.1 on Kubernetes 1.33', 'registry.k8s.io/ingress-nginx/controller:v1.15.1@sha256:abc', 'v1.33.4', 1, 0],
    ['v1.9.6 on Kubernetes 1.33', 'registry.k8s.io/ingress-nginx/controller:v1.9.6', 'v1.33.4', 1, 1],
    ['no ingress-nginx', undefined, 'v1.33.4', 0, 0],
  ])('ingress-nginx-retired / -k8s-unsupported: %s', (_, ingressImage, serverVersion, retired, unsupported) => {
    const i = input({ kube: kube({ ingressImage, serverVersion }) });
    expect(ingressNginxRetired.run(i)).toHaveLength(retired);
    expect(ingressNginxK8sUnsupported.run(i)).toHaveLength(unsupported);
  });

  it('lb-orphaned: an OCCM LB whose Service is gone or no longer type LoadBalancer', () => {
    const i = input({
      cloud: cloud({ loadBalancers: [lb('kube_service_demo_app_web'), lb('kube_service_demo_app_gone'), lb('kube_service_demo_app_nodeport'), lb('kube_service_other_app_x')] }),
      kube: kube({ services: [svc('app', 'web'), svc('app', 'nodeport', { type: 'NodePort' })] }),
    });
    expect(lbOrphaned.run(i).map((f) => f.resource.name)).toEqual(['kube_service_demo_app_gone', 'kube_service_demo_app_nodeport']);
  });

  // Seen on the testbed (2026-11-27): OCCM's delete of a Service's group failed "in use", the retry found the load
  // balancer gone and stopped; after five check-lb runs the project's quota was used up (OverQuota for new Services).
  const U = (n: number) => `0000000${n}-aaaa-4bbb-8ccc-dddddddddddd`;
  const sg = (uid: string, ns: string, name: string, cluster = 'demo') => ({ id: `sg-${uid.slice(7, 8)}-${name}`, name: `lb-sg-${uid}-${ns}-${name}`, description: `Security Group for ${ns}/${name} Service LoadBalancer in cluster ${cluster}` });
  const withUid = (uid: string, s: ReturnType<typeof svc>) => ({ ...s, metadata: { ...s.metadata, uid } });
  it.each([
    ['the Service is gone', [sg(U(1), 'kaas-check-lb', 'echo-local')], [], ['lb-sg-00000001-aaaa-4bbb-8ccc-dddddddddddd-kaas-check-lb-echo-local']],
    ['the Service lives (same UID)', [sg(U(1), 'app', 'web')], [withUid(U(1), svc('app', 'web'))], []],
    ['re-created under the same name (new UID): the old group is the orphan', [sg(U(1), 'app', 'web'), sg(U(2), 'app', 'web')], [withUid(U(2), svc('app', 'web'))], ['lb-sg-00000001-aaaa-4bbb-8ccc-dddddddddddd-app-web']],
    ['no longer type LoadBalancer', [sg(U(1), 'app', 'web')], [withUid(U(1), svc('app', 'web', { type: 'ClusterIP' }))], ['lb-sg-00000001-aaaa-4bbb-8ccc-dddddddddddd-app-web']],
    ['a Service read without its UID is matched by name', [sg(U(1), 'app', 'web')], [svc('app', 'web')], []],
    ['another cluster\'s group', [sg(U(1), 'app', 'web', 'other')], [], []],
    ['CAPO\'s groups and hand-made ones', [{ id: 'c', name: 'k8s-cluster-demo-demo-secgroup-worker', description: 'Cluster API managed group' }, { id: 'h', name: 'lb-sg-by-hand', description: 'mine' }], [], []],
  ])('sg-orphaned: %s', (_, securityGroups, services, want) => {
    const f = sgOrphaned.run(input({ cloud: cloud({ securityGroups }), kube: kube({ services }) }));
    expect(f.map((x) => x.resource.name)).toEqual(want);
    for (const x of f) {
      expect(x).toMatchObject({ check: 'sg-orphaned', severity: 'warning', fix: `openstack security group delete ${x.resource.id}` });
      expect(x.message).toMatch(/no longer exists as a LoadBalancer Service: OCCM will not delete it any more .* counts against the security-group quota/);
    }
  });

  it('sg-orphaned: not listed (an older snapshot) is no finding', () => {
    expect(sgOrphaned.run(input({ cloud: cloud(), kube: kube({ services: [] }) }))).toEqual([]);
  });

  it('runChecks lists every check needing a side that could not be read as could not run, with the reason, and runs the rest', () => {
    const r = runChecks(DOCTOR_CHECKS, input({ lb: AMPHORA, cloud: cloud() }), { cluster: 'cluster demo not reachable: connection refused' });
    expect(r.checked).toContain('lb-error');
    expect(r.skipped).toEqual([]);
    expect(r.couldNotRun).toContainEqual({ check: 'lb-orphaned', reason: 'cluster demo not reachable: connection refused' });
    expect(r.couldNotRun.map((s) => s.check).sort()).toEqual(DOCTOR_CHECKS.filter((c) => c.needs.includes('cluster')).map((c) => c.id).sort());
    expect(new Set([...r.checked, ...r.couldNotRun.map((s) => s.check)]).size).toBe(DOCTOR_CHECKS.length);
  });

  it('runChecks: a side left out by choice is a skip; a check that throws could not run (never a crash, never green)', () => {
    const chosen = runChecks(DOCTOR_CHECKS, input({ lb: AMPHORA, cloud: cloud() }), { cluster: '--cloud-only' }, { cluster: true });
    expect(chosen.couldNotRun).toEqual([]);
    expect(chosen.skipped).toContainEqual({ check: 'lb-orphaned', reason: '--cloud-only' });
    const boom = { ...lbOrphaned, id: 'boom', needs: [] as ('cloud' | 'cluster')[], run: () => { throw new Error('undefined is not iterable\nsecond line'); } };
    const r = runChecks([boom], input({ lb: AMPHORA }), {});
    expect(r.couldNotRun).toEqual([{ check: 'boom', reason: 'the check failed: undefined is not iterable' }]);
    expect(r.checked).toEqual([]);
  });
});
