import { FixedWindowCounter } from './fixed-window-counter.js';

describe('FixedWindowCounter', () => {
  it('allows `limit` hits per key in a window, then tells how long until the window ends', () => {
    const counter = new FixedWindowCounter(2, 10_000);
    expect(counter.hit('a', 0)).toEqual({ allowed: true });
    expect(counter.hit('a', 1_000)).toEqual({ allowed: true });
    expect(counter.hit('a', 1_500)).toEqual({ allowed: false, retryAfterSeconds: 9 });
    expect(counter.hit('b', 1_500)).toEqual({ allowed: true });
  });

  it('starts a new window once the last one ended', () => {
    const counter = new FixedWindowCounter(1, 1_000);
    counter.hit('a', 0);
    expect(counter.hit('a', 999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(counter.hit('a', 1_000)).toEqual({ allowed: true });
  });
});
