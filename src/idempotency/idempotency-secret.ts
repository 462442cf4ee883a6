import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config.js';
import { SecretCipher, SecretUnreadableError } from '../secrets/secret-cipher.js';
import { IdempotencyRepository } from './idempotency.repository.js';

const SECRET_BYTES = 32;

/**
 * The secret every idempotency record is derived from, with the caller's API key (RecordSecrets).
 * One for the database, made by the first replica to start and stored sealed under
 * ENCRYPTION_KEY like every secret at rest: `npm run secrets:reencrypt` rewraps it, so a record is
 * found and opened under the same secret whatever key rotation happened in its lifetime and
 * whichever replica answers. It is made at start-up, not by a request, so that a refused request
 * writes nothing. A replica whose keys cannot open it still starts, as it does with other rows it
 * cannot open: it says at once which key it needs, and answers 500 to requests with an
 * Idempotency-Key until it is given that key.
 */
@Injectable()
export class IdempotencySecret implements OnModuleInit {
  private readonly logger = new Logger('Idempotency');
  private readonly cipher: SecretCipher;
  private loading: Promise<Buffer> | undefined;

  constructor(
    private readonly records: IdempotencyRepository,
    config: AppConfig,
  ) {
    this.cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  }

  async onModuleInit(): Promise<void> {
    await this.value().catch((error: unknown) => {
      if (!(error instanceof SecretUnreadableError)) throw error;
      this.logger.warn(`The idempotency secret cannot be opened: ${error.message}`);
    });
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
