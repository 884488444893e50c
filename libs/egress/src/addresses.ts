/**
 * Which IP addresses the service may connect to when a customer gives it a URL (web research
 * pages, webhook endpoints): public unicast only. An operator may allow loopback (tests, local
 * development) or name hosts and networks (`AllowList`) that are reachable although private. IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d`, the
 * deprecated compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the
 * embedded address, so `::ffff:10.0.0.1` is as private as `10.0.0.1`.
 */
import { BlockList, isIP } from 'node:net';

type Label = 'loopback' | 'private' | 'link-local' | 'reserved';

const RANGES: Array<[Label, string, number, 'ipv4' | 'ipv6']> = [
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (shared address space)
  ['private', 'fc00::', 7, 'ipv6'], // unique local
  ['link-local', '169.254.0.0', 16, 'ipv4'], // includes cloud metadata 169.254.169.254
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', '0.0.0.0', 8, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['reserved', '192.0.2.0', 24, 'ipv4'], // documentation
  ['reserved', '198.18.0.0', 15, 'ipv4'], // benchmarking
  ['reserved', '198.51.100.0', 24, 'ipv4'], // documentation
  ['reserved', '203.0.113.0', 24, 'ipv4'], // documentation
  ['reserved', '224.0.0.0', 4, 'ipv4'], // multicast
  ['reserved', '240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['reserved', '::', 128, 'ipv6'], // unspecified
  ['reserved', '64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['reserved', '100::', 64, 'ipv6'], // discard-only
  ['reserved', '2001:db8::', 32, 'ipv6'], // documentation
  ['reserved', 'fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['reserved', 'ff00::', 8, 'ipv6'], // multicast
];

const LISTS = new Map<Label, BlockList>();
for (const [label, network, prefix, family] of RANGES) {
  const list = LISTS.get(label) ?? new BlockList();
  list.addSubnet(network, prefix, family);
  LISTS.set(label, list);
}

/** The eight 16-bit groups of a valid IPv6 address (zone id removed). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = [Number(dotted[2]), Number(dotted[3]), Number(dotted[4]), Number(dotted[5])];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, zeros)).fill('0'), ...right].map((g) => parseInt(g, 16));
}

const v4 = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address an IPv6 address stands for, if any. */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (g.length !== 8) return null;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && g5 === 0xffff) return v4(g6, g7); // ::ffff:a.b.c.d
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return v4(g6, g7); // ::a.b.c.d (not :: or ::1)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1 ?? 0, g2 ?? 0);
  return null;
}

/** The class of an address: `public`, `invalid`, or the label of the range that holds it. */
export function classifyAddress(address: string): Label | 'public' | 'invalid' {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 0) return 'invalid';
  const plain = address.split('%')[0] ?? '';
  if (family === 6) {
    const inner = embeddedIpv4(plain);
    if (inner !== null) return classifyAddress(inner);
  }
  for (const [label, list] of LISTS) {
    if (list.check(plain, family === 4 ? 'ipv4' : 'ipv6')) return label;
  }
  return 'public';
}

/**
 * What an operator lets through although it is not public: loopback as a whole (tests and local
 * development) and networks in CIDR notation (`10.20.0.0/16`, `127.0.0.1/32`, `fd00::/8`; a
 * bare address is that one address).
 */
export interface AddressAllowance {
  allowLoopback?: boolean;
  networks?: BlockList;
}

/**
 * The networks of `entries` (CIDRs or bare addresses) as a BlockList, or the entries that are
 * neither (so configuration can name them).
 */
export function parseNetworks(entries: readonly string[]): { networks: BlockList; invalid: string[] } {
  const networks = new BlockList();
  const invalid: string[] = [];
  for (const entry of entries) {
    const [address = '', prefixText, extra] = entry.trim().split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (family === 0 || extra !== undefined || !(prefix >= 0 && prefix <= max)) {
      invalid.push(entry);
      continue;
    }
    networks.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return { networks, invalid };
}

/** Why nothing may connect to `address`, or null when it may. */
export function addressProblem(address: string, allow: boolean | AddressAllowance): string | null {
  const allowance = typeof allow === 'boolean' ? { allowLoopback: allow } : allow;
  const label = classifyAddress(address);
  if (label === 'public' || (label === 'loopback' && allowance.allowLoopback === true)) return null;
  if (label === 'invalid') return `invalid address ${address}`;
  const plain = address.split('%')[0] ?? '';
  if (allowance.networks?.check(plain, isIP(plain) === 4 ? 'ipv4' : 'ipv6')) return null;
  return `${label} address ${address}`;
}
