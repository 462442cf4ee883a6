import { describe, expect, it } from '@jest/globals';
import { canonicalAddress } from './client-address.js';

describe('canonicalAddress: one host, one key, at most 39 characters', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['fe80::1%eth0', 'fe80::1'],
    [`fe80::1%${'z'.repeat(15_000)}`, 'fe80::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8::0001', '2001:db8::1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:201', '192.0.2.1'],
    ['0:0:0:0:0:ffff:c000:0201%1', '192.0.2.1'],
    ['::ffff:1', '::ffff:1'],
    ['::1', '::1'],
  ])('%s is %s', (text, canonical) => {
    expect(canonicalAddress(text)).toBe(canonical);
  });

  it.each([['junk'], [''], ['%eth0'], ['1.2.3'], ['01.2.3.4'], [`junk%${'z'.repeat(15_000)}`]])('%s is no address', (text) => {
    expect(canonicalAddress(text)).toBeUndefined();
  });
});
