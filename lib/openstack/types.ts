/**
 * Plain-data facts about a cloud, as `kaas detect` prints them and `--capabilities FILE` feeds
 * them back. Everything here is JSON-serialisable.
 */
export interface OctaviaCapabilities {
  /** False when the catalog has no load-balancer service; `reason` says why. */
  present: boolean;
  reason?: string;
  /** Highest API version offered, e.g. "2.26" (no leading v). */
  maxVersion?: string;
  /** Provider names offered, e.g. ["amphora", "ovn"]. */
  providers: string[];
  /** Octavia's default provider when known (usually "amphora"). */
  defaultProvider?: string;
  /** maxVersion ≥ 2.24: OVN TCP/UDP-CONNECT health monitors work. */
  wallabyOrLater: boolean;
  /** maxVersion ≥ 2.12: listener allowed_cidrs supported (by non-OVN providers). */
  allowedCidrs: boolean;
  endpoint?: string;
}

export interface NeutronCapabilities {
  present: boolean;
  reason?: string;
  endpoint?: string;
  externalNetworks?: { id: string; name: string }[];
}

export interface NovaCapabilities {
  present: boolean;
  reason?: string;
  endpoint?: string;
}

export interface Capabilities {
  /** The cloud these facts were read from (clouds.yaml entry, or "env" for OS_* variables). */
  cloud: string;
  region?: string;
  /** ISO timestamp of detection. */
  detectedAt: string;
  octavia: OctaviaCapabilities;
  neutron: NeutronCapabilities;
  nova: NovaCapabilities;
}
