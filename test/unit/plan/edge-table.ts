import type { EdgeLbPlan } from '../../../lib/plan/edge.js';
import type { IngressVariant } from '../../../lib/plan/ingress.js';
import { planLoadBalancerOffline } from '../../../lib/plan/loadbalancer.js';
import { orThrow } from '../../../lib/plan/decision.js';
import { PROVIDERS } from '../../../lib/plan/providers.js';
const OVN_CLOUD_CONF = PROVIDERS.ovn.cloudConf;
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';
import type { ScalarMap } from '../../../lib/settings/types.js';

/**
 * THE edge decision table, read by the edge, ingress-nginx and gateway tests alike: one row per
 * cloud/settings case, with what the edge Service gets and how each consumer carries it out. It
 * reads like the table in templates/gateway/README.md and the README.
 */

export const AMPHORA: LoadBalancerPlan = orThrow(planLoadBalancerOffline({ use_ovn_lb_provider: false }));
export const OVN: LoadBalancerPlan = {
  provider: 'ovn', ovn: true, cloudConf: { ...OVN_CLOUD_CONF }, proxyProtocolPossible: false, kubeApiAllowedCidrs: false, reasons: ['OVN used: use_ovn_lb_provider is true'],
};

const MON = 'loadbalancer.openstack.org/enable-health-monitor';
const PROXY = 'loadbalancer.openstack.org/proxy-protocol';

/** One row. */
export interface EdgeRow {
  name: string;
  lb: LoadBalancerPlan;
  useProxy: boolean;
  occm: ScalarMap;
  edge: Pick<EdgeLbPlan, 'proxyProtocol' | 'monitor' | 'externalTrafficPolicy' | 'clientIpKept' | 'annotations' | 'cloudConf'>;
  /** ingress-nginx: the variant (its patch set). */
  ingress: IngressVariant;
  /** gateway: a ClientTrafficPolicy with proxyProtocol on the Gateway. */
  gatewayProxyPolicy: boolean;
  /** A reason that must be printed. */
  why: RegExp;
}

export const EDGE_TABLE: EdgeRow[] = [
  {
    name: 'amphora, keep client IPs', lb: AMPHORA, useProxy: true, occm: {},
    edge: { proxyProtocol: true, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: true, annotations: { [MON]: 'true', [PROXY]: 'true' }, cloudConf: { 'enable-ingress-hostname': 'true' } },
    ingress: 'amphora-proxy', gatewayProxyPolicy: true, why: /hairpin with PROXY protocol/,
  },
  {
    name: 'amphora, no PROXY', lb: AMPHORA, useProxy: false, occm: {},
    edge: { proxyProtocol: false, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: false, annotations: { [MON]: 'true' }, cloudConf: {} },
    ingress: 'amphora-monitor', gatewayProxyPolicy: false, why: /the health-monitor annotation only/,
  },
  {
    name: 'amphora, no PROXY, create-monitor on in cloud.conf', lb: AMPHORA, useProxy: false, occm: { 'create-monitor': true },
    edge: { proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: false, annotations: {}, cloudConf: {} },
    ingress: 'amphora-plain', gatewayProxyPolicy: false, why: /create-monitor is on in cloud.conf/,
  },
  {
    name: 'amphora, PROXY, create-monitor on', lb: AMPHORA, useProxy: true, occm: { 'create-monitor': 'true' },
    edge: { proxyProtocol: true, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: true, annotations: { [MON]: 'true', [PROXY]: 'true' }, cloudConf: { 'enable-ingress-hostname': 'true' } },
    ingress: 'amphora-proxy', gatewayProxyPolicy: true, why: /PROXY protocol/,
  },
  {
    name: 'amphora, no PROXY, monitors off', lb: AMPHORA, useProxy: false, occm: { 'create-monitor': false },
    edge: { proxyProtocol: false, monitor: 'none', externalTrafficPolicy: 'Cluster', clientIpKept: false, annotations: {}, cloudConf: {} },
    ingress: 'amphora-cluster', gatewayProxyPolicy: false, why: /No health monitor .*externalTrafficPolicy: Cluster.*not client IPs/,
  },
  {
    name: 'amphora, PROXY, monitors off', lb: AMPHORA, useProxy: true, occm: { 'create-monitor': 'false' },
    edge: { proxyProtocol: true, monitor: 'none', externalTrafficPolicy: 'Cluster', clientIpKept: true, annotations: { [PROXY]: 'true' }, cloudConf: { 'enable-ingress-hostname': 'true' } },
    ingress: 'amphora-proxy-cluster', gatewayProxyPolicy: true, why: /Client IPs still arrive in the PROXY header/,
  },
  {
    name: 'OVN (PROXY setting ignored)', lb: OVN, useProxy: true, occm: {},
    edge: { proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: true, annotations: {}, cloudConf: {} },
    ingress: 'ovn', gatewayProxyPolicy: false, why: /ovn provider has no PROXY pools/,
  },
  {
    name: 'OVN, no PROXY', lb: OVN, useProxy: false, occm: {},
    edge: { proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: true, annotations: {}, cloudConf: {} },
    ingress: 'ovn', gatewayProxyPolicy: false, why: /OVN keeps client IPs/,
  },
];
