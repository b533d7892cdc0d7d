import { ALLOWED_CIDRS_VERSION, compareVersions, WALLABY_VERSION } from '../openstack/api-versions.js';

/**
 * The one table of what each Octavia provider can do, as OCCM, CAPO and the providers themselves
 * behave (sources: occm-loadbalancer-facts.md §4–7, octavia-api-facts.md §4–5). Every consumer —
 * the load-balancer plan, the ingress and gateway edge plans, cloud.conf rendering, doctor's
 * checks and the post-apply verification — reads provider facts from here and nowhere else.
 */

/** Provider names kaas knows facts for. Any other provider is treated like amphora by OCCM. */
export type ProviderName = 'amphora' | 'ovn';

/** Facts of one Octavia provider. */
export interface ProviderFacts {
  name: ProviderName;
  /** lb_algorithm values the provider accepts; the first is what kaas configures. */
  algorithms: readonly string[];
  /** Health-monitor types the provider accepts. */
  monitorTypes: readonly string[];
  /** Octavia API version from which health monitors work with this provider (undefined = always). */
  monitorsFrom?: string;
  /** The monitor OCCM creates for externalTrafficPolicy: Local (HTTP on healthCheckNodePort, or TCP on the NodePort). */
  etpLocalMonitor: 'HTTP' | 'TCP';
  /** Pool protocols PROXY / PROXYV2 (the OCCM proxy-protocol annotation). */
  proxyProtocol: boolean;
  /** The provider keeps the client's source address without PROXY protocol. */
  keepsClientIp: boolean;
  /** Listener allowed_cidrs (VIP ACL); needs Octavia ≥ allowedCidrsFrom as well. */
  allowedCidrs: boolean;
  /** Octavia flavors, listener timeouts, availability zones (OCCM forces these off for ovn). */
  flavors: boolean;
  /** Members may have monitor_port (OCCM's HTTP probe of healthCheckNodePort). */
  memberMonitorPort: boolean;
  /** cloud.conf [LoadBalancer] keys this provider needs when OCCM uses it. */
  cloudConf: Readonly<Record<string, string>>;
}

/** Listener allowed_cidrs need at least this Octavia API version (Train). */
export const ALLOWED_CIDRS_FROM = ALLOWED_CIDRS_VERSION;

/** The provider table. */
export const PROVIDERS: Readonly<Record<ProviderName, ProviderFacts>> = {
  amphora: {
    name: 'amphora',
    algorithms: ['ROUND_ROBIN', 'LEAST_CONNECTIONS', 'SOURCE_IP'],
    monitorTypes: ['HTTP', 'HTTPS', 'PING', 'TCP', 'TLS-HELLO', 'UDP-CONNECT', 'SCTP'],
    etpLocalMonitor: 'HTTP',
    proxyProtocol: true,
    keepsClientIp: false,
    allowedCidrs: true,
    flavors: true,
    memberMonitorPort: true,
    cloudConf: {},
  },
  ovn: {
    name: 'ovn',
    // SOURCE_IP exists only on ovn-octavia-provider master (2026-08), in no release.
    algorithms: ['SOURCE_IP_PORT'],
    monitorTypes: ['TCP', 'UDP-CONNECT'],
    monitorsFrom: WALLABY_VERSION,
    etpLocalMonitor: 'TCP',
    proxyProtocol: false,
    keepsClientIp: true,
    allowedCidrs: false,
    flavors: false,
    memberMonitorPort: false,
    cloudConf: { 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'create-monitor': 'true' },
  },
};

/** The facts of a provider by name; unknown providers (and the deprecated alias "octavia") get amphora's. */
export function providerFacts(name: string | undefined): ProviderFacts {
  return name === 'ovn' ? PROVIDERS.ovn : PROVIDERS.amphora;
}

/** True when the provider takes health monitors on an Octavia of this API version (unknown version: assumed yes). */
export function monitorsSupported(p: ProviderFacts, octaviaVersion?: string): boolean {
  return !p.monitorsFrom || octaviaVersion === undefined || compareVersions(octaviaVersion, p.monitorsFrom) >= 0;
}

/** True when the provider enforces listener allowed_cidrs on an Octavia of this API version. */
export function allowedCidrsEnforced(p: ProviderFacts, octaviaVersion?: string): boolean {
  return p.allowedCidrs && (octaviaVersion === undefined || compareVersions(octaviaVersion, ALLOWED_CIDRS_FROM) >= 0);
}

/** True when `algorithm` (cloud.conf lb-method, pool lb_algorithm) is accepted by the provider. */
export function algorithmAllowed(p: ProviderFacts, algorithm: string): boolean {
  return p.algorithms.includes(algorithm.toUpperCase());
}

/** True when the monitor type is accepted by the provider. */
export function monitorTypeAllowed(p: ProviderFacts, type: string): boolean {
  return p.monitorTypes.includes(type.toUpperCase());
}
