import { orThrow } from '../../../lib/plan/decision.js';
import { planLoadBalancer } from '../../../lib/plan/loadbalancer.js';
import { readFileSync, writeFileSync } from 'node:fs';
import type { ClusterCloud } from '../../../lib/cluster/cloud.js';
import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { octaviaFacts } from '../../../lib/openstack/detect.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

/**
 * An in-memory cloud for the cluster use cases: state you can inspect, every mutating call
 * logged. (The HTTP side of lib/cluster/cloud.ts is tested against the real peer.)
 */
export interface FakeCloudState {
  images: string[];
  flavors: { name: string; disk?: number }[];
  serverGroups: { id: string; name: string; policy: string; members?: string[] }[];
  externalNetworks: { id: string; name: string }[];
  servers: Record<string, string[]>;
  octaviaVersion: string;
  providers: string[];
  /** vipNetwork: the network of the VIP port (CAPO's k8s-clusterapi-cluster-<ns>-<name>: blocks its deletion); projectId: the owner. */
  loadBalancers: { id: string; name: string; vipPortId?: string; vipNetwork?: string; status?: string; projectId?: string; provider?: string }[];
  floatingIps: { id: string; address: string; portId: string; projectId?: string }[];
  securityGroups: { id: string; name: string; description?: string; projectId?: string }[];
  /** The token's project (unset: the fake does not say). */
  projectId?: string;
}

/** A cloud shaped like the example environment's. */
export function exampleCloudState(): FakeCloudState {
  return {
    images: ['ubuntu-capi-image-v1.33.2', 'ubuntu-capi-image-v1.33.4', 'ubuntu-capi-image-v1.32.9'],
    flavors: [{ name: 'SCS-2V-4-20s', disk: 20 }, { name: 'SCS-2V-4', disk: 0 }],
    serverGroups: [],
    externalNetworks: [{ id: '5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa', name: 'ext01' }],
    servers: { 'capi-mgmtcluster': ['192.0.2.10'] },
    octaviaVersion: '2.26',
    providers: ['amphora', 'ovn'],
    loadBalancers: [],
    floatingIps: [],
    securityGroups: [{ id: 'sg-default', name: 'default' }],
  };
}

/** The fake: state + call log. */
export function fakeCloud(state: FakeCloudState = exampleCloudState()): ClusterCloud & { state: FakeCloudState; log: string[] } {
  const log: string[] = [];
  let n = 0;
  return {
    state,
    log,
    capabilities: async () => ({
      cloud: 'example-cloud',
      detectedAt: '2026-11-22T00:00:00.000Z',
      octavia: octaviaFacts(state.octaviaVersion, state.providers),
      neutron: { present: true, externalNetworks: state.externalNetworks },
      nova: { present: true },
    }),
    imageNames: async () => [...state.images],
    flavors: async () => state.flavors.map((f) => ({ ...f })),
    serverGroups: async () => state.serverGroups.map((g) => ({ ...g })),
    async createServerGroup(name, policy) {
      const g = { id: `sg-${++n}`, name, policy };
      state.serverGroups.push(g);
      log.push(`create server group ${name} ${policy}`);
      return { ...g };
    },
    async deleteServerGroup(id) {
      state.serverGroups = state.serverGroups.filter((g) => g.id !== id);
      log.push(`delete server group ${id}`);
    },
    externalNetworks: async () => [...state.externalNetworks],
    serverAddresses: async (name) =>
      state.servers[name] ? { found: true, cidrs: state.servers[name], source: `floating IP of server ${name}` } : { found: false, reason: `no Nova server named ${name} in this project` },
    octaviaVersion: async () => state.octaviaVersion,
    get projectId() {
      return state.projectId;
    },
    // Every project's, as a cloud that ignores the project_id filter would answer an admin token:
    // the cleanup itself must keep to the token's project.
    loadBalancers: async () => state.loadBalancers.map(({ vipNetwork: _, ...l }) => ({ ...l })),
    loadBalancerProvider: async (id) => state.loadBalancers.find((l) => l.id === id)?.provider,
    async deleteLoadBalancer(id) {
      state.loadBalancers = state.loadBalancers.filter((l) => l.id !== id);
      log.push(`delete load balancer ${id}`);
    },
    floatingIpsOfPort: async (portId) => state.floatingIps.filter((f) => f.portId === portId).map((f) => ({ id: f.id, address: f.address, projectId: f.projectId })),
    async deleteFloatingIp(id) {
      state.floatingIps = state.floatingIps.filter((f) => f.id !== id);
      log.push(`delete floating ip ${id}`);
    },
    securityGroups: async () => state.securityGroups.map((g) => ({ ...g })),
    async deleteSecurityGroup(id) {
      state.securityGroups = state.securityGroups.filter((g) => g.id !== id);
      log.push(`delete security group ${id}`);
    },
  };
}

/** Test credentials: an application credential (the secret is a test value). */
export const TEST_CLOUD: CloudConfig = {
  name: 'example-cloud',
  source: 'test',
  auth: { kind: 'application_credential', authUrl: 'https://keystone.example:5000/v3', applicationCredentialId: 'f0e1d2c3b4a5', applicationCredentialSecret: 'test-appcred-secret-value' },
  regionName: 'RegionOne',
  interface: 'public',
  verify: true,
};

/** The plan of `use_ovn_lb_provider: false`. */
export const AMPHORA_PLAN: LoadBalancerPlan = {
  provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: true,
  reasons: ['use_ovn_lb_provider is false'],
};

/** The plan of `use_ovn_lb_provider: true` on a Wallaby+ cloud offering amphora and ovn. */
export const OVN_PLAN: LoadBalancerPlan = orThrow(planLoadBalancer({ use_ovn_lb_provider: true }, {
  cloud: 'example-cloud', detectedAt: '2026-01-01T00:00:00.000Z', octavia: octaviaFacts('2.26', ['amphora', 'ovn']), neutron: { present: true }, nova: { present: true },
}));

/** The fake cloud with its state kept in a JSON file, saved after every change (survives SIGKILL). */
export function persistentFakeCloud(file: string): ReturnType<typeof fakeCloud> & { save: () => void } {
  const state = JSON.parse(readFileSync(file, 'utf8')) as FakeCloudState;
  const base = fakeCloud(state);
  const save = () => writeFileSync(file, JSON.stringify(base.state, null, 2));
  const cloud = Object.assign(base, { save });
  for (const k of ['createServerGroup', 'deleteServerGroup', 'deleteLoadBalancer', 'deleteFloatingIp', 'deleteSecurityGroup'] as const) {
    const fn = cloud[k] as (...a: string[]) => Promise<unknown>;
    (cloud as unknown as Record<string, unknown>)[k] = async (...a: string[]) => {
      const r = await fn(...a);
      save();
      return r;
    };
  }
  return cloud;
}
