import { clusterNames } from '../../../lib/plan/cluster-model.js';
import { OCCM_DEFAULT_CLUSTER_NAME, occmClusterNameOf, ownedBy, type OccmContainer } from '../../../lib/checks/names.js';

/**
 * Which load balancers the doctor counts as a cluster's: OCCM's by the exact OCCM cluster-name the
 * settings give (namespace-prefixed with a namespace setting), CAPO's kube-API LB by the cluster's
 * namespace (plus `default` for kaas clusters made before namespaces).
 */
describe('ownedBy', () => {
  const occm = (c: string) => ({ name: `kube_service_${c}_app_web` });
  const capo = (ns: string, c: string) => ({ name: `k8s-clusterapi-cluster-${ns}-${c}-kubeapi` });
  it.each([
    ['no namespace setting: OCCM LB of demo', '', occm('demo'), true],
    ['no namespace setting: OCCM LB of prod-demo is another cluster', '', occm('prod-demo'), false],
    ['no namespace setting: OCCM LB of staging-demo is another cluster', '', occm('staging-demo'), false],
    ['no namespace setting: CAPO LB in the cluster\'s namespace (kaas, SCS)', '', capo('demo', 'demo'), true],
    ['no namespace setting: CAPO LB in default (kaas before namespaces)', '', capo('default', 'demo'), true],
    ['no namespace setting: CAPO LB of demo in another namespace', '', capo('staging', 'demo'), false],
    ['namespace staging: OCCM LB of staging-demo', 'staging', occm('staging-demo'), true],
    ['namespace staging: OCCM LB of plain demo belongs to another environment', 'staging', occm('demo'), false],
    ['namespace staging: CAPO LB in staging', 'staging', capo('staging', 'demo'), true],
    ['namespace staging: CAPO LB in demo belongs to another environment', 'staging', capo('demo', 'demo'), false],
    ['namespace default: OCCM LB of demo (no prefix for default)', 'default', occm('demo'), true],
    ['namespace default: CAPO LB in default', 'default', capo('default', 'demo'), true],
    ['someone else\'s LB', '', { name: 'my-haproxy' }, false],
  ])('%s → %s', (_, ns, lb, want) => {
    expect(ownedBy(lb, clusterNames(ns, 'demo'))).toBe(want);
  });

  it('without a cluster every OCCM and CAPO LB of the project counts, nothing else', () => {
    expect([occm('x'), capo('a', 'b'), { name: 'my-haproxy' }].map((l) => ownedBy(l))).toEqual([true, true, false]);
  });
});

/** OCCM's --cluster-name read from its DaemonSet's container, as the kubelet would expand it. */
describe('occmClusterNameOf', () => {
  const occm = (args: string[] | undefined, env?: OccmContainer['env'], over: Partial<OccmContainer> = {}): OccmContainer[] => [
    { name: 'openstack-cloud-controller-manager', args, env, ...over },
  ];
  const KAAS_ARGS = ['/bin/openstack-cloud-controller-manager', '--v=1', '--cluster-name=$(CLUSTER_NAME)', '--cloud-config=$(CLOUD_CONFIG)'];
  it.each([
    ['kaas\'s add-on: $(CLUSTER_NAME) from env', occm(KAAS_ARGS, [{ name: 'CLOUD_CONFIG', value: '/etc/config/cloud.conf' }, { name: 'CLUSTER_NAME', value: 'staging-demo' }]), 'staging-demo'],
    ['a literal value', occm(['--cluster-name=demo']), 'demo'],
    ['flag and value as two args', occm(['--cluster-name', 'demo']), 'demo'],
    ['the last flag wins (pflag)', occm(['--cluster-name=a', '--cluster-name=b']), 'b'],
    ['in command, not args', occm(undefined, undefined, { command: ['/bin/openstack-cloud-controller-manager', '--cluster-name=cmd'] }), 'cmd'],
    ['no flag: cloud-provider\'s default', occm(['--v=1']), OCCM_DEFAULT_CLUSTER_NAME],
    ['variable from a Secret (valueFrom): not knowable here', occm(KAAS_ARGS, [{ name: 'CLUSTER_NAME', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }]), undefined],
    ['undefined variable: left as written (kubelet)', occm(['--cluster-name=$(NOPE)']), '$(NOPE)'],
    ['$$ escapes', occm(['--cluster-name=$$(CLUSTER_NAME)'], [{ name: 'CLUSTER_NAME', value: 'x' }]), '$(CLUSTER_NAME)'],
    ['two variables', occm(['--cluster-name=$(NS)-$(C)'], [{ name: 'NS', value: 'prod' }, { name: 'C', value: 'demo' }]), 'prod-demo'],
    ['the OCCM container among sidecars', [{ name: 'sidecar', args: ['--cluster-name=wrong'] }, ...occm(['--cluster-name=right'])], 'right'],
    ['a renamed container, found by its binary', [{ name: 'occm', args: ['/bin/openstack-cloud-controller-manager', '--cluster-name=renamed'] }], 'renamed'],
    ['no OCCM container', [{ name: 'other', args: ['--cluster-name=x'] }], undefined],
    ['no DaemonSet', undefined, undefined],
  ])('%s', (_, containers, want) => {
    expect(occmClusterNameOf(containers)).toBe(want);
  });
});
