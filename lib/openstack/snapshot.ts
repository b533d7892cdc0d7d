import type { FloatingIp, SecurityGroup } from './neutron.js';
import type { HealthMonitor, Listener, LoadBalancer, Member, Pool } from './octavia.js';
import type { OctaviaQuota, QuotaDetail } from './quota.js';

/**
 * The data the checks read, fetched once (fetch-cloud.ts, fetch-cluster.ts) and then only looked
 * at: every check is a pure function of these snapshots and the plan (checks.ts).
 */

/** The project as Octavia and Neutron list it: one list call per collection. */
export interface CloudSnapshot {
  projectId: string;
  octaviaVersion?: string;
  loadBalancers: LoadBalancer[];
  listeners: Listener[];
  pools: Pool[];
  healthMonitors: HealthMonitor[];
  floatingIps: FloatingIp[];
  /** The project's security groups (OCCM's are recognised by name and description); undefined where not listed. */
  securityGroups?: SecurityGroup[];
  /** Undefined when the quota could not be read (reported as skipped). */
  octaviaQuota?: OctaviaQuota;
  neutronQuota?: Record<string, QuotaDetail>;
  /** Members by pool id: fetched only where needed (the post-apply verification of one LB). */
  members?: Record<string, Member[]>;
}

/** A Service as `kubectl get services -A -o json` shows it (the fields the checks read). */
export interface KubeService {
  metadata: { name: string; namespace: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { type?: string; externalTrafficPolicy?: string; healthCheckNodePort?: number; ports?: { port: number; nodePort?: number; protocol?: string }[]; selector?: Record<string, string> };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string; ipMode?: string }[] } };
}

/** A ClientTrafficPolicy as kubectl shows it (the fields the checks read). */
export interface ClientTrafficPolicy {
  metadata: { name: string; namespace: string };
  spec?: {
    targetRef?: { kind?: string; name?: string; sectionName?: string };
    targetRefs?: { kind?: string; name?: string; sectionName?: string }[];
    proxyProtocol?: { optional?: boolean };
    /** The deprecated form of proxyProtocol. */
    enableProxyProtocol?: boolean;
  };
}

/** A node with its InternalIP (the address OCCM makes the pool member). */
export interface KubeNode {
  name: string;
  internalIp?: string;
}

/** A pod of the edge proxy and where it runs. */
export interface KubePod {
  name: string;
  nodeName?: string;
  ready: boolean;
}

/** The workload cluster as kubectl shows it. */
export interface ClusterSnapshot {
  serverVersion?: string;
  services: KubeService[];
  nodes: KubeNode[];
  /** Pods of the ingress-nginx controller. */
  ingressPods: KubePod[];
  /** Envoy pods of the Gateway kaas creates (envoy-gateway-system/kaas), found by Envoy Gateway's owner labels. */
  gatewayPods: KubePod[];
  /** Envoy Gateway's ClientTrafficPolicies (read only when an envoy Service exists: without Envoy Gateway the resource type is unknown). */
  clientTrafficPolicies?: ClientTrafficPolicy[];
  /** The ingress-nginx controller ConfigMap's data (undefined: no ConfigMap). */
  ingressConfig?: Record<string, string>;
  /** The controller Deployment's image (undefined: not deployed). */
  ingressImage?: string;
  /** OCCM's live cloud.conf and the time the Secret was last written (managedFields). */
  cloudConf?: { text: string; changedAt?: string };
  /** Start times of the OCCM pods. */
  occmStartedAt: string[];
  /** OCCM's --cluster-name as its DaemonSet runs it; undefined when OCCM is absent or the value is not knowable. */
  occmClusterName?: string;
}
