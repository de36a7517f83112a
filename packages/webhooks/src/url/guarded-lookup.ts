import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/** A connection refused by the URL policy at connect time (the name resolved elsewhere). */
export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/**
 * A `lookup` for an HTTP agent that resolves every address of the host and refuses the
 * connection when any of them is refused: the check happens on the addresses the socket
 * connects to, so a name that resolved to a public address at registration and to a
 * private one now (DNS rebinding) is still refused. IP literals never reach a lookup;
 * the sender checks them before connecting.
 */
export function guardedLookup(refusal: (address: string) => string | null): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const reason = refusal(address);
        if (reason !== null) {
          return callback(
            new BlockedAddressError(`the URL's host ${hostname} resolves to ${address}, ${reason}`),
            '',
            0,
          );
        }
      }
      const first = addresses[0];
      if (options.all) return callback(null, addresses);
      if (first === undefined)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      return callback(null, first.address, first.family);
    });
  };
}
