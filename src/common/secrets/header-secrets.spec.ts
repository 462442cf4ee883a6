import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config.js';
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

  it('seals the values inside a JSON headers text and gives back the text byte for byte', () => {
    const text = '{ "Authorization" : "Bearer \\"quoted\\" secret",\n  "X-Uni":"\\u00e9t\\u00e9 secret" , "X-Empty": "" }';
    const sealed = encrypting.sealJson(text);
    expect(sealed).not.toMatch(/secret|quoted|u00e9/);
    expect(Object.keys(JSON.parse(sealed))).toEqual(['Authorization', 'X-Uni', 'X-Empty']);
    expect(sealed.startsWith('{ "Authorization" : "enc:v1:')).toBe(true);
    expect(encrypting.openJson(sealed)).toBe(text);
  });

  it('keeps headers as sent without ENCRYPTION_KEY, and reads such plain headers with one', () => {
    const text = '{"X-Key":"abc"}';
    expect(plain.sealJson(text)).toBe(text);
    expect(plain.sealMap({ 'X-Key': 'abc' })).toEqual({ 'X-Key': 'abc' });
    expect(encrypting.openJson(text)).toBe(text);
    expect(encrypting.openMap({ 'X-Key': 'abc' })).toEqual({ 'X-Key': 'abc' });
  });
});
