import type { Request } from 'express';
import { isIP } from 'node:net';

const IPV4_MAPPED = '::ffff:';
/** An IPv4-mapped address as the URL parser writes it: the IPv4 address in two hexadecimal groups. */
const HEX_IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The client's address as TRUST_PROXY lets Express read it, for the address-based limits and the
 * log line, in one canonical form so that one host is one key: an IPv6 zone (`%eth0`, of any
 * length) is dropped, IPv6 is written as RFC 5952 does (lower case, zeros compressed), and an
 * IPv4-mapped IPv6 address is the IPv4 address. So the result is at most 39 characters, whatever
 * the caller sent. With `TRUST_PROXY=true` a client can write anything into X-Forwarded-For: what
 * is not an address counts as the connection's peer, so junk neither makes long keys nor a fresh
 * bucket per request. Without X-Forwarded-For the peer is the answer whatever TRUST_PROXY says:
 * Express's request.ip would parse the trust list again on every read.
 */
export function clientAddress(request: Request): string {
  const peer = canonicalAddress(request.socket.remoteAddress ?? '') ?? '';
  if (request.headers['x-forwarded-for'] === undefined) return peer;
  const forwarded = request.ip;
  return (forwarded === undefined ? undefined : canonicalAddress(forwarded)) ?? peer;
}

/** The canonical form of an IP address, or undefined when `text` is none. */
export function canonicalAddress(text: string): string | undefined {
  const zone = text.indexOf('%');
  const address = zone === -1 ? text : text.slice(0, zone);
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return undefined;
  if (address.startsWith(IPV4_MAPPED) && isIP(address.slice(IPV4_MAPPED.length)) === 4) return address.slice(IPV4_MAPPED.length);
  // The WHATWG URL parser writes an IPv6 host in the RFC 5952 form, brackets around it.
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const mapped = HEX_IPV4_MAPPED.exec(canonical);
  if (mapped === null) return canonical;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
