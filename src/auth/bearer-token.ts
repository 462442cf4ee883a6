import type { Request } from 'express';
import { digestApiKey } from '../keys/api-key-material.js';

const BEARER = /^Bearer +(\S+) *$/i;

/** A key as the caller presented it, unverified, with the digest its rate-limit bucket and its lookup use. */
export interface PresentedKey {
  value: string;
  digest: string;
}

/** Read once per request: the rate limit, the key guard and the idempotency scope all ask. */
const PRESENTED = new WeakMap<Request, PresentedKey | undefined>();

/** The API key of `Authorization: Bearer <key>`; undefined when the header is missing or malformed. */
export function presentedApiKey(request: Request): PresentedKey | undefined {
  if (PRESENTED.has(request)) return PRESENTED.get(request);
  const value = BEARER.exec(request.header('authorization') ?? '')?.[1];
  const presented = value === undefined ? undefined : { value, digest: digestApiKey(value) };
  PRESENTED.set(request, presented);
  return presented;
}
