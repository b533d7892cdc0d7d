import { clusterNames } from '../../../lib/cluster/model.js';
import { ownedBy } from '../../../lib/doctor/names.js';

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
