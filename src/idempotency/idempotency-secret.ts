import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { SecretCipher } from '../secrets/secret-cipher.js';
import { IdempotencyRecords } from './idempotency-records.js';

const SECRET_BYTES = 32;

/**
 * The secret every idempotency record is derived from, with the caller's API key (RecordSecrets).
 * One for the database, made by the first replica that needs it and stored sealed under
 * ENCRYPTION_KEY like every secret at rest: `npm run secrets:reencrypt` rewraps it, so a record is
 * found and opened under the same secret whatever key rotation happened in its lifetime and
 * whichever replica answers, as long as that replica can open the stored secret.
 */
@Injectable()
export class IdempotencySecret {
  private readonly cipher: SecretCipher;
  private loading: Promise<Buffer> | undefined;

  constructor(
    private readonly records: IdempotencyRecords,
    config: AppConfig,
  ) {
    this.cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  }

  /** Read once per process; a failure (no database, no key that opens it) is tried again on the next use. */
  value(): Promise<Buffer> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** Reads it again on the next use: for a database emptied under the running process (the tests' reset). */
  forget(): void {
    this.loading = undefined;
  }

  private async load(): Promise<Buffer> {
    const stored = await this.records.secret(this.cipher.seal(randomBytes(SECRET_BYTES).toString('base64')));
    return Buffer.from(this.cipher.open(stored), 'base64');
  }
}
