import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { canonicalText, RecordSecrets } from './idempotency-key.js';

const idempotencySecret = randomBytes(32);
const scope = { apiKey: 'sk_caller0key0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', caller: 'workspace:w1', route: 'POST /api/cloud/assistants', key: '7' };
const response = { apiKey: { value: 'sk_new0key0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } };

describe('RecordSecrets', () => {
  it('opens what it sealed; the sealed bytes do not hold the response', () => {
    const secrets = new RecordSecrets(idempotencySecret, scope);
    const sealed = secrets.seal(response);
    expect(sealed.toString('latin1')).not.toContain(response.apiKey.value);
    expect(new RecordSecrets(idempotencySecret, scope).open(sealed)).toEqual(response);
  });

  it.each([
    ['another API key', { apiKey: `${scope.apiKey}b` }, idempotencySecret],
    ['another caller', { caller: 'workspace:w2' }, idempotencySecret],
    ['another route', { route: 'POST /api/cloud/tasks' }, idempotencySecret],
    ['another Idempotency-Key', { key: '8' }, idempotencySecret],
    ['another idempotency secret', {}, randomBytes(32)],
  ])('with %s, neither finds the record nor opens its response', (_, change, withSecret) => {
    const sealed = new RecordSecrets(idempotencySecret, scope).seal(response);
    const other = new RecordSecrets(withSecret, { ...scope, ...change });
    expect(other.digest).not.toBe(new RecordSecrets(idempotencySecret, scope).digest);
    expect(() => other.open(sealed)).toThrow();
    expect(other.bodyDigest('{"a":1}')).not.toBe(new RecordSecrets(idempotencySecret, scope).bodyDigest('{"a":1}'));
  });

  it('digests equal bodies alike and other bodies otherwise, under one set of secrets', () => {
    const secrets = new RecordSecrets(idempotencySecret, scope);
    expect(new RecordSecrets(idempotencySecret, scope).bodyDigest(canonicalText({ b: 1, a: [2] }))).toBe(secrets.bodyDigest(canonicalText({ a: [2], b: 1 })));
    expect(secrets.bodyDigest(canonicalText({ a: [2], b: 2 }))).not.toBe(secrets.bodyDigest(canonicalText({ a: [2], b: 1 })));
  });

  it('keeps the parts apart: the same text split otherwise between route and key is another record', () => {
    const split = new RecordSecrets(idempotencySecret, { ...scope, route: 'POST /a b', key: 'c' });
    expect(split.digest).not.toBe(new RecordSecrets(idempotencySecret, { ...scope, route: 'POST /a', key: 'b c' }).digest);
  });

  it('takes a route of any length', () => {
    expect(new RecordSecrets(idempotencySecret, { ...scope, route: `POST /${'a'.repeat(100_000)}` }).digest).toMatch(/^[0-9a-f]{64}$/);
  });
});
