import { isUUID } from 'class-validator';

/** Where a page ends in the list order (createdAt, then id). */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

/** Opaque to callers: base64url of the last item's position. Timestamps are stored to the millisecond, so the ISO form is exact. */
export function encodeCursor({ createdAt, id }: ListPosition): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

/**
 * The instants a row's createdAt can hold, as toISOString writes them: a four-digit year from 1970.
 * JavaScript dates reach years ±275,760 and PostgreSQL refuses most of them (and year 0), so a
 * forged cursor naming one would fail in the query instead of being refused here.
 */
const CREATED_AT = /^(19[7-9]\d|[2-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The position a cursor names, or undefined when the text is not a cursor this service made. */
export function decodeCursor(cursor: string): ListPosition | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) return undefined;
  const [createdAt, id] = decoded as unknown[];
  if (typeof createdAt !== 'string' || !CREATED_AT.test(createdAt) || typeof id !== 'string' || !isUUID(id, 'all')) return undefined;
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== createdAt) return undefined;
  return { createdAt: date, id };
}
