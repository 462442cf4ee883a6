import { describe, expect, it } from '@jest/globals';
import { KeyUseThrottle } from './key-use-throttle.js';

describe('KeyUseThrottle', () => {
  it('lets one use per key through per minute, however many come', () => {
    const throttle = new KeyUseThrottle(60_000);
    expect(throttle.claim('k1', 0)).toBe(true);
    expect(throttle.claim('k1', 1_000)).toBe(false);
    expect(throttle.claim('k1', 59_999)).toBe(false);
    expect(throttle.claim('k2', 59_999)).toBe(true);
    expect(throttle.claim('k1', 60_000)).toBe(true);
    expect(throttle.claim('k1', 60_001)).toBe(false);
  });

  it('starts the minute from a use read from the database', () => {
    const throttle = new KeyUseThrottle(60_000);
    throttle.note('k1', 100_000);
    expect(throttle.claim('k1', 130_000)).toBe(false);
    expect(throttle.claim('k1', 160_000)).toBe(true);
  });

  it('stays bounded, dropping entries that no longer hold anything back first', () => {
    const throttle = new KeyUseThrottle(60_000, 2);
    throttle.claim('old', 0);
    throttle.claim('recent', 50_000);
    throttle.claim('new', 70_000);
    expect(throttle.claim('recent', 71_000)).toBe(false);
    expect(throttle.claim('old', 71_000)).toBe(true);
  });
});
