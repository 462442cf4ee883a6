import { describe, expect, it, jest } from '@jest/globals';
import { StatementNames } from './statement-names.js';

const RESULT_TYPE_CHANGED = Object.assign(new Error('cached plan must not change result type'), { code: '0A000', routine: 'RevalidateCachedQuery' });

describe('StatementNames', () => {
  it('names each statement text once, and the same text by the same name', () => {
    const names = new StatementNames(true);
    const first = names.queryConfig('SELECT 1 WHERE $1', [true]);
    expect(first).toEqual({ name: expect.stringMatching(/^amc_[0-9a-f]{40}$/), text: 'SELECT 1 WHERE $1', values: [true] });
    expect(names.queryConfig('SELECT 1 WHERE $1', [false]).name).toBe(first.name);
    expect(names.queryConfig('SELECT 2', []).name).not.toBe(first.name);
  });

  it('gives a statement the same name in every process, so that no session can hold another statement under it', () => {
    const [one, other] = [new StatementNames(true), new StatementNames(true)];
    other.queryConfig('SELECT 2', []);
    expect(other.queryConfig('SELECT 1', []).name).toBe(one.queryConfig('SELECT 1', []).name);
  });

  it('names nothing when turned off (DATABASE_PREPARED_STATEMENTS=false)', () => {
    expect(new StatementNames(false).queryConfig('SELECT 1', [])).toEqual({ text: 'SELECT 1', values: [] });
  });

  it('leaves statements unnamed past 500 distinct texts, so that no connection holds plans without end', () => {
    const names = new StatementNames(true);
    for (let i = 0; i < 500; i++) expect(names.queryConfig(`SELECT ${i}`, []).name).toBeDefined();
    expect(names.queryConfig('SELECT 500', []).name).toBeUndefined();
    expect(names.queryConfig('SELECT 0', []).name).toBeDefined();
  });

  it('sends a statement PostgreSQL refuses after a schema change as new text under a new name, whatever the language of the server, and retries nothing else', () => {
    const names = new StatementNames(true);
    const poolerLost = jest.fn();
    const before = names.queryConfig('SELECT * FROM t', []);
    const translated = Object.assign(new Error('le plan en cache ne doit pas modifier le type en résultat'), { code: '0A000', routine: 'RevalidateCachedQuery' });
    expect(names.mayRetryAfter('SELECT * FROM t', Object.assign(new Error('relation "t" does not exist'), { code: '42P01' }), poolerLost)).toBe(false);
    expect(names.mayRetryAfter('SELECT * FROM t', Object.assign(new Error('not supported'), { code: '0A000', routine: 'transformSelectStmt' }), poolerLost)).toBe(false);
    expect(names.mayRetryAfter('SELECT * FROM u', RESULT_TYPE_CHANGED, poolerLost)).toBe(false);
    expect(names.queryConfig('SELECT * FROM t', [])).toEqual(before);
    expect(names.mayRetryAfter('SELECT * FROM t', translated, poolerLost)).toBe(true);
    const after = names.queryConfig('SELECT * FROM t', [1]);
    expect(after.text).toMatch(/^\/\* replanned [0-9a-f-]{36} \*\/ SELECT \* FROM t$/);
    expect(after.name).not.toBe(before.name);
    // Text no other process sends: a pooler that keeps statements by text holds no stale plan under it.
    const elsewhere = new StatementNames(true);
    elsewhere.queryConfig('SELECT * FROM t', []);
    elsewhere.mayRetryAfter('SELECT * FROM t', RESULT_TYPE_CHANGED, poolerLost);
    expect(elsewhere.queryConfig('SELECT * FROM t', []).text).not.toBe(after.text);
    expect(poolerLost).not.toHaveBeenCalled();
  });

  it.each([
    ['already exists', '42P05'],
    ['does not exist', '26000'],
  ])('stops naming for good when a pooler lost a statement (prepared statement %s), says so once, and lets every named statement retry', (_, code) => {
    const names = new StatementNames(true);
    const poolerLost = jest.fn();
    const lost = Object.assign(new Error('prepared statement "amc_…"'), { code });
    names.queryConfig('SELECT 1', []);
    names.queryConfig('SELECT 2', []);
    expect(names.mayRetryAfter('SELECT 1', lost, poolerLost)).toBe(true);
    expect(names.queryConfig('SELECT 1', [])).toEqual({ text: 'SELECT 1', values: [] });
    // Another statement sent named before naming stopped, refused the same way meanwhile.
    expect(names.mayRetryAfter('SELECT 2', lost, poolerLost)).toBe(true);
    expect(names.mayRetryAfter('SELECT 3', lost, poolerLost)).toBe(false);
    expect(poolerLost).toHaveBeenCalledTimes(1);
  });
});
