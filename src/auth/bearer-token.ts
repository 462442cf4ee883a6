import type { Request } from 'express';

const BEARER = /^Bearer +(\S+) *$/i;

/** The API key of `Authorization: Bearer <key>`, unverified; undefined when the header is missing or malformed. */
export function presentedApiKey(request: Request): string | undefined {
  return BEARER.exec(request.header('authorization') ?? '')?.[1];
}
