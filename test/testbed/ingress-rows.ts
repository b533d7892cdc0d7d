/**
 * The rows of the `kaas apply-ingress` load-balancer decision table (docs/concepts/load-balancers.md), as the testbed runs them:
 * edge-ingress.test.ts checks what OCCM builds for each, edge-datapath.test.ts sends packets through the
 * ovn rows. Plain data, no tests (a test file cannot be imported without running its tests).
 */
import type { Row } from './lb-rows.js';

export const INGRESS_ROWS: Row[] = [
  { variant: 'amphora-proxy', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'true' }, provider: 'amphora', proxy: true, etp: 'Local', monitor: 'HTTP', hostname: true },
  { variant: 'amphora-monitor', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'HTTP', hostname: false },
  { variant: 'amphora-plain', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false', occm_loadbalancer: '{create-monitor: "true"}' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'HTTP', hostname: false },
  { variant: 'amphora-cluster', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false', occm_loadbalancer: '{create-monitor: "false"}' }, provider: 'amphora', proxy: false, etp: 'Cluster', monitor: 'none', hostname: false },
  { variant: 'amphora-proxy-cluster', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'true', occm_loadbalancer: '{create-monitor: "false"}' }, provider: 'amphora', proxy: true, etp: 'Cluster', monitor: 'none', hostname: true },
  // The same project through region RegionNoOvn of the peer's catalog: an Octavia API on the same database
  // that offers only the amphora provider (test/peer/start.sh). kaas detects that, and OCCM runs there too.
  // Before the ovn rows: the live cluster runs amphora, so `auto` has no running provider to keep.
  { variant: 'amphora-monitor (auto, the cloud offers no ovn)', sets: { cloud: 'peer-demo-appcred-noovn', use_ovn_lb_provider: 'auto', nginx_use_proxy: 'false' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'HTTP', hostname: false, reason: /OVN not offered: providers are amphora\b/ },
  { variant: 'ovn', sets: { use_ovn_lb_provider: 'true' }, provider: 'ovn', proxy: false, etp: 'Local', monitor: 'TCP', hostname: false },
  { variant: 'ovn (auto, the cloud offers ovn)', sets: { use_ovn_lb_provider: 'auto' }, provider: 'ovn', proxy: false, etp: 'Local', monitor: 'TCP', hostname: false },
];
