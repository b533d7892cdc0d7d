import { ipv4Network, ipv6Network, parseCidr, type Cidr } from '../net/cidr.js';
import { describeOrigin } from './origin.js';
import type { SettingDecl } from './table.js';
import type { Origin, SettingKey } from './types.js';

/**
 * Values whose shape is right but that no cluster can use (issue 23): a node subnet of every
 * address or of one, a DNS server at 0.0.0.0, a version with a leading zero, pod/Service/node
 * ranges that overlap. Each problem says what, where and how to fix it.
 */

const RANGE_ROLE: Partial<Record<SettingKey, string>> = {
  node_cidr: 'the node subnet CAPO creates',
  pod_cidr: 'the pod network',
  service_cidr: 'the Service network',
};

/** Smallest useful prefix (largest prefix length) of each range, per family. */
const NARROWEST: Partial<Record<SettingKey, { 4: number; 6: number; why: string; example: string }>> = {
  // Neutron keeps the network, gateway, DHCP and broadcast addresses of a subnet; CAPO adds the API LB's VIP.
  node_cidr: { 4: 28, 6: 120, why: 'Neutron keeps the network, gateway and DHCP addresses, and every node and load balancer needs one', example: '10.8.0.0/20' },
  // cilium's cluster pool gives each node a /24, calico blocks of /26.
  pod_cidr: { 4: 24, 6: 112, why: 'each node takes a block of it (cilium a /24, calico /26 blocks)', example: '192.168.0.0/16' },
  // The kubernetes Service is the first address, kube-dns the tenth.
  service_cidr: { 4: 28, 6: 124, why: 'the kubernetes Service takes its first address and kube-dns its tenth, and every Service one more', example: '10.96.0.0/12' },
};

/** Semantic problems of one value that passed its shape check (without location prefix). */
export function valueSenseProblems(decl: Pick<SettingDecl, 'key' | 'type'>, value: unknown, path: string): string[] {
  if ((decl.type.kind === 'version' || decl.type.kind === 'boolOrVersion') && typeof value === 'string') {
    const zero = /^v(\d+)\.(\d+)\.(\d+|x)$/.exec(value)?.slice(1).find((p) => p.length > 1 && p.startsWith('0'));
    if (zero) {
      const fixed = `v${value.slice(1).split('.').map((p) => (p === 'x' ? p : String(Number(p)))).join('.')}`;
      return [`${path}: "${value}" has a leading zero (${zero}); versions are written without: "${fixed}"`];
    }
  }
  if (decl.type.kind === 'cidr' && typeof value === 'string' && RANGE_ROLE[decl.key]) {
    const c = parseCidr(value);
    if ('error' in c) return [];
    const role = RANGE_ROLE[decl.key]!;
    const n = NARROWEST[decl.key]!;
    if (c.prefix === 0) return [`${path}: "${value}" is every address, not a range for ${role}: give it a private range such as ${n.example}`];
    if (c.prefix > n[c.family]) {
      const size = c.family === 4 ? `${2 ** (32 - c.prefix)} address${c.prefix === 32 ? '' : 'es'}` : `a /${c.prefix}`;
      return [`${path}: "${value}" is too small for ${role} (${size}; ${n.why}): use /${n[c.family]} or wider, e.g. ${n.example}`];
    }
    // kube-apiserver refuses a service-cluster-ip-range with more than 20 host bits.
    if (decl.key === 'service_cidr' && c.prefix < (c.family === 4 ? 12 : 108)) {
      return [`${path}: "${value}" is wider than kube-apiserver accepts for Services (at most 20 host bits: /${c.family === 4 ? 12 : 108} or narrower): e.g. 10.96.0.0/12`];
    }
  }
  if (decl.key === 'dns_nameservers' && Array.isArray(value)) {
    return value.flatMap((ip, i) => {
      const why = typeof ip === 'string' ? unusableDns(ip) : undefined;
      return why ? [`${path}[${i}]: "${ip}" is ${why}, not a DNS server the nodes can ask: give the address of a resolver (e.g. 9.9.9.9)`] : [];
    });
  }
  return [];
}

/** Why an address cannot be a DNS server for the nodes, or undefined. */
function unusableDns(ip: string): string | undefined {
  if (ip === '0.0.0.0' || /^::?$|^(0+:){7}0+$/.test(ip) || ip === '::') return 'the unspecified address';
  if (ip === '255.255.255.255') return 'the broadcast address';
  const first = Number(ip.split('.')[0]);
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip) && first >= 224 && first <= 239) return 'a multicast address';
  if (/^ff[0-9a-f]{2}:/i.test(ip)) return 'a multicast address';
  if (/^127\./.test(ip) || ip === '::1') return "a loopback address (each node's own)";
  return undefined;
}

/** True when the two ranges share an address (same family, one contains the other). */
export function overlaps(a: Cidr, b: Cidr): boolean {
  if (a.family !== b.family) return false;
  const [wide, narrow] = a.prefix <= b.prefix ? [a, b] : [b, a];
  const net = (addr: string, p: number) => (wide.family === 4 ? ipv4Network(addr, p) : ipv6Network(addr, p));
  return net(narrow.address, wide.prefix) === net(wide.address, wide.prefix);
}

/**
 * Overlapping pod, Service and node ranges of the merged settings, each naming where both values
 * came from. `prefix` is put before the setting names (`clusters.demo.`).
 */
export function overlapProblems(values: Partial<Record<SettingKey, unknown>>, origins: Partial<Record<SettingKey, Origin>>, prefix = ''): string[] {
  const keys: SettingKey[] = ['node_cidr', 'pod_cidr', 'service_cidr'];
  const parsed = keys.map((k) => {
    const v = values[k];
    const c = typeof v === 'string' ? parseCidr(v) : undefined;
    return c && !('error' in c) ? { key: k, text: v as string, cidr: c } : undefined;
  });
  const out: string[] = [];
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i];
      const b = parsed[j];
      if (!a || !b || !overlaps(a.cidr, b.cidr)) continue;
      // Blame the one the user set (a default is what they did not choose).
      const [mine, other] = origins[b.key]?.kind !== 'default' || origins[a.key]?.kind === 'default' ? [b, a] : [a, b];
      out.push(
        `${prefix}${mine.key} "${mine.text}" (${describeOrigin(origins[mine.key])}) overlaps ${other.key} "${other.text}" (${describeOrigin(origins[other.key])}): ` +
          `${RANGE_ROLE[mine.key]} and ${RANGE_ROLE[other.key]} must not share addresses (routing would send one to the other); change ${mine.key} to a range outside ${other.text}, e.g. ${NARROWEST[mine.key]!.example}`,
      );
    }
  }
  return out;
}
