import { Injectable, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { SecretCipher } from '../secrets/secret-cipher.js';
import { IdempotencyRecords } from './idempotency-records.js';

const SECRET_BYTES = 32;

/**
 * The secret every idempotency record is derived from, with the caller's API key (RecordSecrets).
 * One for the database, made by the first replica to start and stored sealed under
 * ENCRYPTION_KEY like every secret at rest: `npm run secrets:reencrypt` rewraps it, so a record is
 * found and opened under the same secret whatever key rotation happened in its lifetime and
 * whichever replica answers. It is made and read at start-up, not by a request: a refused request
 * writes nothing, and a replica whose keys cannot open the stored secret stops there, saying which
 * key it needs, rather than answering 500 to every retry.
 */
@Injectable()
export class IdempotencySecret implements OnModuleInit {
  private readonly cipher: SecretCipher;
  private loading: Promise<Buffer> | undefined;

  constructor(
    private readonly records: IdempotencyRecords,
    config: AppConfig,
  ) {
    this.cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  }

  async onModuleInit(): Promise<void> {
    await this.value();
  }

  /** Read once per process; a failure (no database, no key that opens it) is tried again on the next use. */
  value(): Promise<Buffer> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** Makes or reads it again: for a database emptied under the running process (the tests' reset). */
  async reload(): Promise<void> {
    this.loading = undefined;
    await this.value();
  }

  private async load(): Promise<Buffer> {
    const stored = await this.records.secret(this.cipher.seal(randomBytes(SECRET_BYTES).toString('base64')));
    return Buffer.from(this.cipher.open(stored), 'base64');
  }
}
