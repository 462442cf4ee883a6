import { describe, expect, it } from '@jest/globals';
import { ApiKeyType } from '../keys/api-key-type.js';
import type { Principal } from './principal.js';
import { VerifiedKeyCache } from './verified-key-cache.js';

const principal = (keyId: string): Principal => ({ keyId, organizationId: 'org', type: ApiKeyType.PRIVATE, workspaceId: 'ws' });

describe('VerifiedKeyCache', () => {
  it('returns a remembered key until its time is up, then forgets it', () => {
    const cache = new VerifiedKeyCache(10_000);
    cache.remember(cache.stamp(), 'digest', principal('k1'), 1_000);
    expect(cache.get('digest', 10_999)).toEqual(principal('k1'));
    expect(cache.get('digest', 11_000)).toBeUndefined();
    expect(cache.get('digest', 1_000)).toBeUndefined();
  });

  it('forgets a revoked key at once, and only that one', () => {
    const cache = new VerifiedKeyCache(10_000);
    cache.remember(cache.stamp(), 'a', principal('k1'), 0);
    cache.remember(cache.stamp(), 'b', principal('k2'), 0);
    cache.forgetKey('k1');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toEqual(principal('k2'));
  });

  it('forgets a key when the key itself expires, if that comes first', () => {
    const cache = new VerifiedKeyCache(10_000);
    cache.remember(cache.stamp(), 'a', principal('k1'), 1_000, 2_500);
    expect(cache.get('a', 2_499)).toEqual(principal('k1'));
    expect(cache.get('a', 2_500)).toBeUndefined();
    cache.remember(cache.stamp(), 'b', principal('k2'), 1_000, 1_000);
    expect(cache.get('b', 1_000)).toBeUndefined();
  });

  it('remembers nothing with a time to live of 0', () => {
    const cache = new VerifiedKeyCache(0);
    cache.remember(cache.stamp(), 'a', principal('k1'), 0);
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('does not remember what a lookup read before a key was forgotten (a lookup racing a revocation)', () => {
    const cache = new VerifiedKeyCache(10_000);
    const before = cache.stamp();
    cache.forgetKey('k1');
    cache.remember(before, 'a', principal('k1'), 0);
    expect(cache.get('a', 1)).toBeUndefined();

    cache.remember(cache.stamp(), 'a', principal('k1'), 0);
    expect(cache.get('a', 1)).toEqual(principal('k1'));
  });

  it('does not remember a lookup that started before everything was forgotten', () => {
    const cache = new VerifiedKeyCache(10_000);
    const before = cache.stamp();
    cache.forgetAll();
    cache.remember(before, 'a', principal('k1'), 0);
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('while distrusted, holds nothing; once trusted again, only lookups that started after', () => {
    const cache = new VerifiedKeyCache(10_000);
    cache.remember(cache.stamp(), 'a', principal('k1'), 0);
    cache.distrust();
    expect(cache.get('a', 1)).toBeUndefined();

    const whileDistrusted = cache.stamp();
    cache.remember(whileDistrusted, 'b', principal('k2'), 0);
    expect(cache.get('b', 1)).toBeUndefined();

    cache.trust();
    cache.remember(whileDistrusted, 'b', principal('k2'), 0);
    expect(cache.get('b', 1)).toBeUndefined();
    cache.remember(cache.stamp(), 'b', principal('k2'), 0);
    expect(cache.get('b', 1)).toEqual(principal('k2'));
  });

  it('drops the oldest entry when full', () => {
    const cache = new VerifiedKeyCache(10_000, 2);
    for (const key of ['a', 'b', 'c']) cache.remember(cache.stamp(), key, principal(key), 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toEqual(principal('c'));
  });
});
