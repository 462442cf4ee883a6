import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { SecretCipher } from './secret-cipher.js';

/** A JSON string literal, escapes included. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;

/**
 * Header values are secrets at rest (they carry tokens); header names are not, and stay readable
 * in their order. Services seal headers on the way into a row and open them on the way out.
 */
@Injectable()
export class HeaderSecrets {
  private readonly cipher: SecretCipher;

  constructor(config: AppConfig) {
    this.cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  }

  sealMap(headers: Record<string, string>): Record<string, string> {
    return mapValues(headers, (value) => this.cipher.seal(value));
  }

  openMap(headers: Record<string, string>): Record<string, string> {
    return mapValues(headers, (value) => this.cipher.open(value));
  }

  /**
   * `text` is a JSON object of strings, returned later byte for byte: each value's literal, quotes
   * and escapes included, is sealed in place, and everything around it is kept.
   */
  sealJson(text: string): string {
    if (!this.cipher.encrypts) return text;
    return mapValueLiterals(text, (literal) => `"${this.cipher.seal(literal)}"`);
  }

  openJson(text: string): string {
    return mapValueLiterals(text, (literal) => {
      const inner = literal.slice(1, -1);
      return this.cipher.isSealed(inner) ? this.cipher.open(inner) : literal;
    });
  }
}

function mapValues(headers: Record<string, string>, change: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, change(value)]));
}

/**
 * In a JSON object whose values are all strings, the string literals alternate name, value, and
 * no quote appears outside them: every second literal is a value.
 */
function mapValueLiterals(text: string, change: (literal: string) => string): string {
  let index = 0;
  return text.replace(JSON_STRING, (literal) => (index++ % 2 === 1 ? change(literal) : literal));
}
