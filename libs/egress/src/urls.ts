/**
 * The URL rules for every request the service makes to an address a customer chose (web research
 * pages, webhook endpoints): http or https only, no credentials in the URL, and every address the
 * host resolves to allowed by `addressProblem` (public, or allowed by the operator). One home for
 * the rule, so registration, research and delivery cannot drift apart.
 *
 * The caller's HTTP client resolves the host again when it connects: requests go through
 * `egressDispatcher` (dispatcher.ts), which applies the same rules to the addresses it connects
 * to, so a DNS answer that changes between the check and the connection (DNS rebinding) is
 * refused too. Deployments may also deny private ranges to egress (a Kubernetes NetworkPolicy).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressProblem, parseNetworks, type AddressAllowance } from './addresses';

/** A URL or host the rules refuse; `message` is short and safe to show (no URL in it). */
export class EgressRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefusal';
  }
}

/** What the operator allows besides public addresses. */
export interface EgressPolicy extends AddressAllowance {
  /** Host names (lower case) reachable whatever they resolve to. */
  hosts?: ReadonlySet<string>;
}

/** Resolves a host name to its addresses. */
export type Lookup = (host: string) => Promise<string[]>;

export async function defaultLookup(host: string): Promise<string[]> {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

/**
 * A policy from an operator's list of host names and networks (CIDR or bare address), e.g.
 * `WEBHOOK_ALLOW_PRIVATE=127.0.0.1/32,hooks.internal`. Entries with a `/` or that are IP
 * addresses are networks; others are host names.
 */
export function policyFromList(entries: readonly string[], allowLoopback = false): EgressPolicy {
  const cidrs = entries.filter((e) => e.includes('/') || isIP(e) !== 0);
  const hosts = entries.filter((e) => !cidrs.includes(e)).map((e) => e.toLowerCase());
  const { networks, invalid } = parseNetworks(cidrs);
  if (invalid.length) throw new Error(`not a network: ${invalid.join(', ')}`);
  return { allowLoopback, networks, hosts: new Set(hosts) };
}

/** `raw` (relative to `base`) as a URL the rules accept, or an EgressRefusal. */
export function parseOutboundUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new EgressRefusal('invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressRefusal(`scheme ${url.protocol.replace(/:$/, '')} not allowed`);
  }
  if (url.username !== '' || url.password !== '') throw new EgressRefusal('credentials in URL not allowed');
  return url;
}

/**
 * Refuses (EgressRefusal) unless every address the URL's host resolves to is allowed. `wait`
 * wraps the lookup (a caller's abort or time limit); its own errors pass through.
 */
export async function checkOutboundHost(
  url: URL,
  policy: EgressPolicy,
  resolve: Lookup = defaultLookup,
  wait: <T>(promise: Promise<T>) => Promise<T> = (p) => p,
): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (policy.hosts?.has(host.toLowerCase())) return;
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    const found = await wait(resolve(host).catch(() => undefined));
    if (found === undefined) throw new EgressRefusal(`host ${host} not found`);
    addresses = found;
  }
  checkAddresses(host, addresses, policy);
}

/**
 * Refuses (EgressRefusal) unless `host` resolved to something and every address is allowed, or
 * the operator named the host: the rule itself, for the check before a request and for the
 * lookup of its connection (dispatcher.ts).
 */
export function checkAddresses(host: string, addresses: readonly string[], policy: EgressPolicy): void {
  if (policy.hosts?.has(host.toLowerCase())) return;
  if (addresses.length === 0) throw new EgressRefusal(`host ${host} not found`);
  for (const address of addresses) {
    const problem = addressProblem(address, policy);
    if (problem !== null) throw new EgressRefusal(`${problem} refused`);
  }
}

/** `raw` parsed and its host checked: the URL, or an EgressRefusal saying why not. */
export async function checkOutboundUrl(raw: string, policy: EgressPolicy, resolve?: Lookup): Promise<URL> {
  const url = parseOutboundUrl(raw);
  await checkOutboundHost(url, policy, resolve);
  return url;
}
