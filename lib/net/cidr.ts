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
  if (family === 4) {
    const network = ipv4Network(addr, prefix);
    if (network !== addr) return { error: `"${text}" has host bits set; did you mean ${network}/${prefix}?` };
  }
  return { address: addr, prefix, family };
}

/** The network address of an IPv4 address under a prefix. */
export function ipv4Network(addr: string, prefix: number): string {
  const n = addr.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const m = (n & mask) >>> 0;
  return [m >>> 24, (m >>> 16) & 255, (m >>> 8) & 255, m & 255].join('.');
}

/** "a.b.c.d" → "a.b.c.d/32"; a CIDR stays as it is. */
export function toHostCidr(text: string): string {
  const c = parseCidr(text, true);
  if ('error' in c) throw new Error(c.error);
  return `${c.address}/${c.prefix}`;
}

/** True for a valid IPv4/IPv6 address (no prefix). */
export function isIp(text: string): boolean {
  return net.isIP(text) !== 0;
}
