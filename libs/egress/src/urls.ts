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
import { isIP, type BlockList } from 'node:net';
import { addressProblem, classifyAddress, parseNetworks, type AddressAllowance } from './addresses';

/** A URL or host the rules refuse; `message` is short and safe to show (no URL in it). */
export class EgressRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefusal';
  }
}

/** Where a request goes besides its host: the scheme and the port it connects to. */
export interface EgressTarget {
  scheme: 'http' | 'https';
  port: number;
}

/**
 * One entry of an operator's allowance: a host name or networks, reachable although not public,
 * but only on these ports (`any` for `:*`) and, when named, only with this scheme.
 */
export interface AllowRule {
  scheme?: 'http' | 'https';
  host?: string;
  networks?: BlockList;
  ports: 'any' | ReadonlySet<number>;
}

/** What the operator allows besides public addresses. */
export interface EgressPolicy extends AddressAllowance {
  /** Host names (lower case) reachable whatever they resolve to, on any port. */
  hosts?: ReadonlySet<string>;
  /** Hosts and networks reachable on the ports (and scheme) each names. */
  rules?: readonly AllowRule[];
}

/** Resolves a host name to its addresses. */
export type Lookup = (host: string) => Promise<string[]>;

export async function defaultLookup(host: string): Promise<string[]> {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/**
 * One allowance entry: `[scheme://]host-or-network[:port|:*]`, e.g. `https://hooks.internal:8443`,
 * `10.20.0.0/16:443`, `[fd00::/8]:8080`, `127.0.0.1/32:*`. Without a port: the scheme's port
 * (443 for https, 80 for http), or 80 and 443 when no scheme is named either.
 */
export function parseAllowRule(entry: string): AllowRule {
  const bad = (): Error => new Error(`not a host or network: ${entry}`);
  let rest = entry.trim();
  let scheme: 'http' | 'https' | undefined;
  const withScheme = /^(https?):\/\/(.*)$/i.exec(rest);
  if (withScheme) {
    // The pattern admits only these two, in any case.
    scheme = withScheme[1]!.toLowerCase() === 'https' ? 'https' : 'http';
    rest = withScheme[2]!;
  }
  let place = rest;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(rest);
  if (bracketed) [, place = '', portText] = bracketed;
  else if ((rest.match(/:/g) ?? []).length === 1) [place = '', portText] = rest.split(':');
  let ports: AllowRule['ports'];
  if (portText === undefined)
    ports = new Set(scheme === 'https' ? [443] : scheme === 'http' ? [80] : [80, 443]);
  else if (portText === '*') ports = 'any';
  else if (/^\d{1,5}$/.test(portText) && Number(portText) >= 1 && Number(portText) <= 65535)
    ports = new Set([Number(portText)]);
  else throw bad();
  if (place.includes('/') || isIP(place) !== 0) {
    const { networks, invalid } = parseNetworks([place]);
    if (invalid.length) throw bad();
    return { scheme, networks, ports };
  }
  const host = place.toLowerCase();
  if (!HOST_NAME.test(host)) throw bad();
  return { scheme, host, ports };
}

/**
 * A policy from an operator's list of allowance entries (`parseAllowRule`), e.g.
 * `WEBHOOK_ALLOW_PRIVATE=10.20.0.0/16:8080,https://hooks.internal`.
 */
export function policyFromList(entries: readonly string[], allowLoopback = false): EgressPolicy {
  return { allowLoopback, rules: entries.map(parseAllowRule) };
}

/** The scheme and port `url` connects to. */
export function targetOf(url: URL): EgressTarget {
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  return { scheme, port: url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port) };
}

function ruleFits(rule: AllowRule, target: EgressTarget | undefined): boolean {
  if (target === undefined) return false;
  if (rule.scheme !== undefined && rule.scheme !== target.scheme) return false;
  return rule.ports === 'any' || rule.ports.has(target.port);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- exactly what is looked for
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** `raw` (relative to `base`) as a URL the rules accept, or an EgressRefusal. */
export function parseOutboundUrl(raw: string, base?: URL): URL {
  // The URL parser would quietly rewrite these (a lone surrogate to %EF%BF%BD, a NUL to %00, tabs
  // and new lines dropped): the address stored or fetched would not be the one given.
  if (LONE_SURROGATE.test(raw)) throw new EgressRefusal('lone surrogate in URL not allowed');
  if (CONTROL_CHARACTER.test(raw)) throw new EgressRefusal('control character in URL not allowed');
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
): Promise<{ private: boolean }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const target = targetOf(url);
  if (policy.hosts?.has(host.toLowerCase())) return { private: true };
  if (policy.rules?.some((r) => r.host === host.toLowerCase() && ruleFits(r, target)))
    return { private: true };
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    const found = await wait(resolve(host).catch(() => undefined));
    if (found === undefined) throw new EgressRefusal(`host ${host} not found`);
    addresses = found;
  }
  return checkAddresses(host, addresses, policy, target);
}

/**
 * Refuses (EgressRefusal) unless `host` resolved to something and every address is allowed, or
 * the operator named the host: the rule itself, for the check before a request and for the
 * lookup of its connection (dispatcher.ts). An allowance rule counts only for the scheme and
 * port it names (`target`; without one, only public addresses, loopback when allowed, and the
 * port-less `hosts`/`networks` pass). `private`: some address (or the host) was not public, so
 * the caller keeps nothing of what the target answers.
 */
export function checkAddresses(
  host: string,
  addresses: readonly string[],
  policy: EgressPolicy,
  target?: EgressTarget,
): { private: boolean } {
  const name = host.toLowerCase();
  if (policy.hosts?.has(name)) return { private: true };
  if (policy.rules?.some((r) => r.host === name && ruleFits(r, target))) return { private: true };
  if (addresses.length === 0) throw new EgressRefusal(`host ${host} not found`);
  let isPrivate = false;
  for (const address of addresses) {
    if (classifyAddress(address) !== 'public') isPrivate = true;
    const problem = addressProblem(address, policy);
    if (problem === null) continue;
    const plain = address.split('%')[0] ?? '';
    const family = isIP(plain) === 4 ? 'ipv4' : 'ipv6';
    const matching = (policy.rules ?? []).filter((r) => r.networks?.check(plain, family) === true);
    if (matching.some((r) => ruleFits(r, target))) continue;
    // Allowed on other ports or schemes only: say which port was refused.
    const where = matching.length > 0 && target !== undefined ? ` port ${target.port}` : '';
    throw new EgressRefusal(`${problem}${where} refused`);
  }
  return { private: isPrivate };
}

/** `raw` parsed and its host checked: the URL, or an EgressRefusal saying why not. */
export async function checkOutboundUrl(raw: string, policy: EgressPolicy, resolve?: Lookup): Promise<URL> {
  const url = parseOutboundUrl(raw);
  await checkOutboundHost(url, policy, resolve);
  return url;
}
