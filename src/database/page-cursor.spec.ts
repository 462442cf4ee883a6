import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './page-cursor.js';

const forge = (position: unknown) => Buffer.from(JSON.stringify(position) ?? '').toString('base64url');
const FIRST = Date.UTC(1970, 0, 1);
const LAST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('cursors', () => {
  it('give back the position they were made from, for any instant a row can hold', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(FIRST), max: new Date(LAST), noInvalidDate: true }), fc.uuid(), (createdAt, id) => {
        expect(decodeCursor(encodeCursor({ createdAt, id }))).toEqual({ createdAt, id });
      }),
      { seed: 20261123, numRuns: 500 },
    );
  });

  it('name no instant PostgreSQL could refuse, whatever a client forges', () => {
    const position = fc.tuple(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.uuid(),
    );
    fc.assert(
      fc.property(fc.oneof(position, fc.jsonValue()), (forged) => {
        const decoded = decodeCursor(forge(forged));
        if (decoded !== undefined) expect(decoded.createdAt.getTime()).toBeGreaterThanOrEqual(FIRST);
        if (decoded !== undefined) expect(decoded.createdAt.getTime()).toBeLessThanOrEqual(LAST);
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });

  it.each([
    ['the first instant JavaScript knows', ['-271821-04-20T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']],
    ['year 0', ['0000-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']],
    ['a six-digit year', ['+010000-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']],
    ['a third element', ['2026-01-01T00:00:00.000Z', '00000000-0000-4000-8000-000000000000', null]],
  ])('refuse %s', (_case, position) => expect(decodeCursor(forge(position))).toBeUndefined());
});
