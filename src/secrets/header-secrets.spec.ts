import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { HeaderSecrets } from './header-secrets.js';

const key = randomBytes(32).toString('hex');
const encrypting = new HeaderSecrets(AppConfig.fromEnvironment({ ENCRYPTION_KEY: key }));
const plain = new HeaderSecrets(AppConfig.fromEnvironment({}));

describe('HeaderSecrets', () => {
  it('seals the values of a header map and keeps its names in order', () => {
    const headers = { 'X-Z': 'zz-secret', Authorization: 'Bearer tok-secret', 'X-A': '' };
    const sealed = encrypting.sealMap(headers);
    expect(Object.keys(sealed)).toEqual(['X-Z', 'Authorization', 'X-A']);
    expect(JSON.stringify(sealed)).not.toMatch(/secret/);
    expect(encrypting.openMap(sealed)).toEqual(headers);
  });

  it('seals a JSON headers text whole, whatever it holds, and gives it back byte for byte', () => {
    for (const text of [
      '{ "Authorization" : "Bearer \\"quoted\\" secret",\n  "X-Uni":"\\u00e9t\\u00e9 secret" , "X-Empty": "" }',
      '{"n":1,"n":"x","Authorization":"Bearer secret"}',
      '{"n":{"a":"secret"},"n":"x"}',
    ]) {
      const sealed = encrypting.sealText(text);
      expect(sealed).toMatch(/^enc:v1:/);
      expect(sealed).not.toMatch(/secret|Authorization/);
      expect(encrypting.openText(sealed)).toBe(text);
    }
  });

  it('keeps headers in clear behind a marker without ENCRYPTION_KEY, and reads them with one', () => {
    const text = '{"X-Key":"enc:v1:00000000:AA:AA:"}';
    expect(plain.sealText(text)).toBe(`plain:${text}`);
    expect(plain.openText(plain.sealText(text))).toBe(text);
    expect(encrypting.openText(plain.sealText(text))).toBe(text);
    expect(plain.openMap(plain.sealMap({ 'X-Key': 'enc:v1:00000000:AA:AA:' }))).toEqual({ 'X-Key': 'enc:v1:00000000:AA:AA:' });
  });

  it('reads function headers stored as a JSON text with sealed value literals, as before the whole text was sealed', () => {
    // The literal was sealed, quotes and escapes included.
    const sealedValue = encrypting.cipher.seal('"Bearer tok"');
    expect(encrypting.openText(`{ "Authorization": "${sealedValue}", "X-Plain": "abc" }`)).toBe('{ "Authorization": "Bearer tok", "X-Plain": "abc" }');
    expect(plain.openText('{"X-Plain":"abc"}')).toBe('{"X-Plain":"abc"}');
  });
});
