import type { Request } from 'express';
import { isIP } from 'node:net';

/**
 * The client's address as TRUST_PROXY lets Express read it, for the address-based limits. With
 * `TRUST_PROXY=true` a client can write anything into X-Forwarded-For: what is not an address
 * counts as the connection's peer, so junk neither makes long keys nor a fresh bucket per request.
 */
export function clientAddress(request: Request): string {
  const address = request.ip;
  return address !== undefined && isIP(address) !== 0 ? address : (request.socket.remoteAddress ?? '');
}
