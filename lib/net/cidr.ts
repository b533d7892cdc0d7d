import net from 'node:net';

/** A parsed IPv4/IPv6 CIDR. */
export interface Cidr {
  address: string;
  prefix: number;
  family: 4 | 6;
}

/**
 * Parses "a.b.c.d/nn" (or IPv6). With `bareIpAsHost`, a bare address means a single host (/32,
 * /128), as SCS's RESTRICT_KUBEAPI did. Returns an error sentence instead of throwing.
 */
export function parseCidr(text: string, bareIpAsHost = false): Cidr | { error: string } {
  const [addr, prefixText, ...rest] = text.split('/');
  // Node accepts "fe80::1%eth0" as IPv6; a zone names an interface of this host, meaningless to a cloud.
  if (addr.includes('%')) return { error: `"${text}" has a zone index (${addr.slice(addr.indexOf('%'))}); write the address without it` };
  const family = net.isIPv4(addr) ? 4 : net.isIPv6(addr) ? 6 : 0;
  if (!family || rest.length) return { error: `"${text}" is not a CIDR (expected e.g. 10.8.0.0/20)` };
  const max = family === 4 ? 32 : 128;
  if (prefixText === undefined) {
    if (bareIpAsHost) return { address: addr, prefix: max, family };
    return { error: `"${text}" has no prefix length (expected e.g. ${addr}/24)` };
  }
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) {
    return { error: `"${text}" has an invalid prefix length (0–${max})` };
  }
  const prefix = Number(prefixText);
  const network = family === 4 ? ipv4Network(addr, prefix) : ipv6Network(addr, prefix);
  const same = family === 4 ? network === addr : ipv6Value(network) === ipv6Value(addr);
  if (!same) return { error: `"${text}" has host bits set; did you mean ${network}/${prefix}?` };
  return { address: addr, prefix, family };
}

/** The network address of an IPv4 address under a prefix. */
export function ipv4Network(addr: string, prefix: number): string {
  const n = addr.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const m = (n & mask) >>> 0;
  return [m >>> 24, (m >>> 16) & 255, (m >>> 8) & 255, m & 255].join('.');
}

/** An IPv6 address as a 128-bit number (an embedded IPv4 tail such as ::ffff:1.2.3.4 included). */
function ipv6Value(addr: string): bigint {
  let text = addr;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4[1].split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
    text = text.slice(0, -v4[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

/** The network address of an IPv6 address under a prefix, in compressed form. */
export function ipv6Network(addr: string, prefix: number): string {
  const mask = prefix === 0 ? 0n : ((1n << 128n) - 1n) ^ ((1n << BigInt(128 - prefix)) - 1n);
  const n = ipv6Value(addr) & mask;
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16));
  const full = groups.join(':');
  // Compress the longest run of two or more zero groups (the first such run, as RFC 5952 asks).
  const r = [...full.matchAll(/(?:^|:)(0(?::0)+)(?=:|$)/g)].sort((a, b) => b[1].length - a[1].length)[0];
  if (!r) return full;
  const start = r.index! + (r[0].startsWith(':') ? 1 : 0);
  return `${full.slice(0, start).replace(/:$/, '')}::${full.slice(start + r[1].length).replace(/^:/, '')}`;
}

/** "a.b.c.d" → "a.b.c.d/32"; a CIDR stays as it is. */
export function toHostCidr(text: string): string {
  const c = parseCidr(text, true);
  if ('error' in c) throw new Error(c.error);
  return `${c.address}/${c.prefix}`;
}

/** True for a valid IPv4/IPv6 address (no prefix). */
export function isIp(text: string): boolean {
  return !text.includes('%') && net.isIP(text) !== 0;
}
