/**
 * The connection side of the egress rules: an HTTP dispatcher (undici, the client behind Node's
 * fetch) whose every connection resolves its host through the rules. `checkOutboundHost` before
 * a request gives a clear refusal early; this is what closes DNS rebinding: a name that answered
 * with a public address at the check and answers with a private one when the connection is made
 * is refused at the connection, because the address connected to is the address checked.
 * (A URL with an IP address connects without a lookup; the check before the request covers it.)
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { checkAddresses, defaultLookup, type EgressPolicy, type EgressTarget, type Lookup } from './urls';

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls connections that answers only with addresses `policy` allows. */
export function checkedLookup(policy: EgressPolicy, resolve: Lookup = defaultLookup, target?: EgressTarget) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    resolve(host)
      .then((addresses) => {
        checkAddresses(host, addresses, policy, target);
        const answers = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}

/**
 * A dispatcher for fetch (`{ dispatcher }`) whose connections follow `policy`, judged with the
 * scheme and port each connection goes to (one connector per scheme and port, so an allowance
 * for `10.0.0.0/8:8080` does not open port 6379).
 */
export function egressDispatcher(
  policy: EgressPolicy,
  resolve?: Lookup,
  options: {
    /**
     * Time limit of making the connection (undici's connect timeout; its own default, 10 s,
     * otherwise). Shorter than the request's, it tells a port nobody answers on (a firewall or
     * network policy that drops it) from a receiver that is slow to answer.
     */
    connectTimeoutMs?: number;
  } = {},
): Agent {
  const connectors = new Map<string, buildConnector.connector>();
  const connect: buildConnector.connector = (opts, callback) => {
    const scheme = opts.protocol === 'https:' ? 'https' : 'http';
    const port =
      opts.port === '' || opts.port === undefined ? (scheme === 'https' ? 443 : 80) : Number(opts.port);
    const key = `${scheme}:${port}`;
    let connector = connectors.get(key);
    if (connector === undefined) {
      connector = buildConnector({
        lookup: checkedLookup(policy, resolve, { scheme, port }),
        ...(options.connectTimeoutMs === undefined ? {} : { timeout: options.connectTimeoutMs }),
      });
      connectors.set(key, connector);
    }
    return connector(opts, callback);
  };
  return new Agent({ connect });
}
