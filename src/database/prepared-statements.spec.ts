import { describe, expect, it, jest } from '@jest/globals';
import type { QueryConfig } from 'pg';
import { PreparedStatements } from './prepared-statements.js';

/** The name and text pg reads of what it is handed, inherited properties included. */
const sent = (statement: string | QueryConfig) => (typeof statement === 'string' ? { text: statement } : { name: statement.name, text: statement.text });
const nameOf = (statement: string | QueryConfig) => sent(statement).name;

const RESULT_TYPE_CHANGED = Object.assign(new Error('cached plan must not change result type'), { code: '0A000', routine: 'RevalidateCachedQuery' });

describe('PreparedStatements', () => {
  it('names each statement text once, and the same text by the same name', () => {
    const names = new PreparedStatements(true);
    const first = sent(names.statement('SELECT 1 WHERE $1'));
    expect(first).toEqual({ name: expect.stringMatching(/^amc_[0-9a-f]{40}$/), text: 'SELECT 1 WHERE $1' });
    expect(nameOf(names.statement('SELECT 1 WHERE $1'))).toBe(first.name);
    expect(nameOf(names.statement('SELECT 2'))).not.toBe(first.name);
  });

  it('gives a statement the same name in every process, so that no session can hold another statement under it', () => {
    const [one, other] = [new PreparedStatements(true), new PreparedStatements(true)];
    other.statement('SELECT 2');
    expect(nameOf(other.statement('SELECT 1'))).toBe(nameOf(one.statement('SELECT 1')));
  });

  it('names nothing when turned off (DATABASE_PREPARED_STATEMENTS=false)', () => {
    expect(new PreparedStatements(false).statement('SELECT 1')).toBe('SELECT 1');
  });

  it('leaves statements unnamed past 500 distinct texts, so that no connection holds plans without end', () => {
    const names = new PreparedStatements(true);
    for (let i = 0; i < 500; i++) expect(nameOf(names.statement(`SELECT ${i}`))).toBeDefined();
    expect(names.statement('SELECT 500')).toBe('SELECT 500');
    expect(nameOf(names.statement('SELECT 0'))).toBeDefined();
  });

  it('sends a statement PostgreSQL refuses after a schema change as new text under a new name, whatever the language of the server, and retries nothing else', () => {
    const names = new PreparedStatements(true);
    const poolerLost = jest.fn();
    const before = sent(names.statement('SELECT * FROM t'));
    const translated = Object.assign(new Error('le plan en cache ne doit pas modifier le type en résultat'), {
      code: '0A000',
      routine: 'RevalidateCachedQuery',
    });
    expect(names.mayRetryAfter('SELECT * FROM t', Object.assign(new Error('relation "t" does not exist'), { code: '42P01' }), poolerLost)).toBe(false);
    expect(
      names.mayRetryAfter('SELECT * FROM t', Object.assign(new Error('not supported'), { code: '0A000', routine: 'transformSelectStmt' }), poolerLost),
    ).toBe(false);
    expect(names.mayRetryAfter('SELECT * FROM u', RESULT_TYPE_CHANGED, poolerLost)).toBe(false);
    expect(sent(names.statement('SELECT * FROM t'))).toEqual(before);
    expect(names.mayRetryAfter('SELECT * FROM t', translated, poolerLost)).toBe(true);
    const after = sent(names.statement('SELECT * FROM t'));
    expect(after.text).toMatch(/^\/\* replanned [0-9a-f-]{36} \*\/ SELECT \* FROM t$/);
    expect(after.name).not.toBe(before.name);
    // Text no other process sends: a pooler that keeps statements by text holds no stale plan under it.
    const elsewhere = new PreparedStatements(true);
    elsewhere.statement('SELECT * FROM t');
    elsewhere.mayRetryAfter('SELECT * FROM t', RESULT_TYPE_CHANGED, poolerLost);
    expect(sent(elsewhere.statement('SELECT * FROM t')).text).not.toBe(after.text);
    expect(poolerLost).not.toHaveBeenCalled();
  });

  it.each([
    ['already exists', '42P05'],
    ['does not exist', '26000'],
  ])('stops naming for good when a pooler lost a statement (prepared statement %s), says so once, and lets every named statement retry', (_, code) => {
    const names = new PreparedStatements(true);
    const poolerLost = jest.fn();
    const lost = Object.assign(new Error('prepared statement "amc_…"'), { code });
    names.statement('SELECT 1');
    names.statement('SELECT 2');
    expect(names.mayRetryAfter('SELECT 1', lost, poolerLost)).toBe(true);
    expect(names.statement('SELECT 1')).toBe('SELECT 1');
    // Another statement sent named before naming stopped, refused the same way meanwhile.
    expect(names.mayRetryAfter('SELECT 2', lost, poolerLost)).toBe(true);
    expect(names.mayRetryAfter('SELECT 3', lost, poolerLost)).toBe(false);
    expect(poolerLost).toHaveBeenCalledTimes(1);
  });
});
