import { BlockList, isIP, type Socket } from 'node:net';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from './types';

/** An IPv4 address as an IPv6 socket reports it (`::ffff:192.0.2.1`), as plain IPv4. */
function normalise(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/**
 * The networks whose X-Forwarded-For entries are believed, from CIDRs or single addresses
 * (`10.0.0.0/8`, `::1`). Throws on anything else, so a typo stops the process at start.
 */
export function trustedNetworks(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix, ...rest] = entry.trim().split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (
      family === 0 ||
      rest.length > 0 ||
      !Number.isInteger(bits) ||
      bits < 0 ||
      bits > (family === 6 ? 128 : 32)
    ) {
      throw new Error(`"${entry}" is not an IP address or CIDR network`);
    }
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The client's address, as proxy-addr (Express) decides it: start at the socket's peer and,
 * while the address at hand is a trusted proxy, step one X-Forwarded-For entry to the left.
 * The first untrusted address (or the leftmost entry) is the client. With no trusted network
 * the header is never read: whoever connects is the client.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, list: BlockList): string {
  let address = normalise(peer);
  if (!forwardedFor || !isTrusted(list, address)) return address;
  const hops = forwardedFor
    .split(',')
    .map(normalise)
    .filter((hop) => hop !== '');
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = hops[i]!;
    // A malformed entry ends the walk: what the trusted proxy connected from is all we know.
    if (isIP(hop) === 0) return address;
    address = hop;
    if (!isTrusted(list, address)) return address;
  }
  return address;
}

const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto'];

/**
 * Sets ctx.ip (which every per-address budget and lockout counts) from the socket's peer and
 * the trusted proxy networks. A request whose peer is not a trusted proxy has its X-Forwarded-*
 * headers removed, so no later reader (ctx.ips, ctx.host, ctx.protocol) can believe them either.
 */
export function clientAddressFromTrustedProxies(
  trusted: readonly string[],
): Middleware<AppState, AppContext> {
  const list = trustedNetworks(trusted);
  // A connection's peer does not change: whether it is a trusted proxy is decided once per
  // connection (keep-alive clients and proxies send many requests on one).
  const peers = new WeakMap<Socket, { peer: string; address: string; trusted: boolean }>();
  return (ctx, next) => {
    const socket = ctx.req.socket;
    let known = peers.get(socket);
    if (!known) {
      const peer = socket.remoteAddress ?? '';
      const address = normalise(peer);
      known = { peer, address, trusted: isTrusted(list, address) };
      peers.set(socket, known);
    }
    if (!known.trusted) {
      for (const name of FORWARDED_HEADERS) delete ctx.req.headers[name];
      // clientAddress() of an untrusted peer: the peer itself.
      ctx.request.ip = known.address;
    } else {
      ctx.request.ip = clientAddress(known.peer, ctx.get('X-Forwarded-For') || undefined, list);
    }
    return next();
  };
}
