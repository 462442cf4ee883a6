import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { SecretCipher } from './secret-cipher.js';

/** A JSON string literal, escapes included. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/**
 * Header values are secrets at rest (they carry tokens). An MCP server's headers are an object:
 * each value is sealed, names stay readable in their order. A function's headers are a JSON text
 * returned byte for byte: the text is sealed whole, so nothing in it (duplicate names, values that
 * are not strings, odd escapes) can leave a value in clear.
 */
@Injectable()
export class HeaderSecrets {
  readonly cipher: SecretCipher;

  constructor(config: AppConfig) {
    this.cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  }

  sealMap(headers: Record<string, string>): Record<string, string> {
    return mapValues(headers, (value) => this.cipher.seal(value));
  }

  openMap(headers: Record<string, string>): Record<string, string> {
    return mapValues(headers, (value) => this.cipher.open(value));
  }

  sealText(text: string): string {
    return this.cipher.seal(text);
  }

  openText(stored: string): string {
    return isLegacyText(stored) ? this.openLegacyText(stored) : this.cipher.open(stored);
  }

  /** Before the whole text was sealed, each value literal was sealed in place (see isLegacyText). */
  private openLegacyText(text: string): string {
    let index = 0;
    return text.replace(JSON_STRING, (literal) => {
      const inner = literal.slice(1, -1);
      return index++ % 2 === 1 && this.cipher.isSealed(inner) ? this.cipher.open(inner) : literal;
    });
  }
}

/**
 * A function's headers as stored before migration 1795741200000: the JSON text itself, with value
 * literals sealed where ENCRYPTION_KEY was set. `npm run secrets:reencrypt` rewrites them whole.
 */
export function isLegacyText(stored: string): boolean {
  return /^\s*\{/.test(stored);
}

function mapValues(headers: Record<string, string>, change: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, change(value)]));
}
