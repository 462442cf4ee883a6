import type { Request } from 'express';
import { isIP } from 'node:net';

/**
 * The client's address as TRUST_PROXY lets Express read it, for the address-based limits and the
 * log line. With `TRUST_PROXY=true` a client can write anything into X-Forwarded-For: what is not
 * an address counts as the connection's peer, so junk neither makes long keys nor a fresh bucket
 * per request. Without X-Forwarded-For the peer is the answer whatever TRUST_PROXY says, and is
 * taken as it is: Express's request.ip would parse the trust list again on every read.
 */
export function clientAddress(request: Request): string {
  const peer = request.socket.remoteAddress ?? '';
  if (request.headers['x-forwarded-for'] === undefined) return peer;
  const address = request.ip;
  return address !== undefined && isIP(address) !== 0 ? address : peer;
}
