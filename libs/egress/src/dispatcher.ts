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
import { Agent } from 'undici';
import { checkAddresses, defaultLookup, type EgressPolicy, type Lookup } from './urls';

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls connections that answers only with addresses `policy` allows. */
export function checkedLookup(policy: EgressPolicy, resolve: Lookup = defaultLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    resolve(host)
      .then((addresses) => {
        checkAddresses(host, addresses, policy);
        const answers = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) callback(null, answers);
        else callback(null, answers[0]!.address, answers[0]!.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}

/** A dispatcher for fetch (`{ dispatcher }`) whose connections follow `policy`. */
export function egressDispatcher(policy: EgressPolicy, resolve?: Lookup): Agent {
  return new Agent({ connect: { lookup: checkedLookup(policy, resolve) } });
}
