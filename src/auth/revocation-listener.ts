/* eslint-disable tenancy/unscoped-database-access -- its own connection LISTENs on the revocation channel, which touches no table */
import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The channel on which a committed revocation names each key it revoked (NOTIFY payload: the key's id). */
export const KEY_REVOCATION_CHANNEL = 'api_key_revocations';

const CONNECT_TIMEOUT_MS = 5000;
/**
 * A connection that silently stops carrying packets looks open: a query every second proves it
 * still does, and one unanswered past the timeout counts as the connection lost. Until then a
 * revocation may go unheard, so a revoked key works on that replica for at most about 3 s (it was
 * 7 s with a query every 5 s); the cost is one trivial query a second per replica.
 */
const HEARTBEAT_INTERVAL_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 2000;
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;
const STOP_TIMEOUT_MS = 1000;
/** Payloads of the notifications a replica sends itself, never a key id (a UUID). */
const PROBE_PREFIX = 'probe:';
const PROBE_TIMEOUT_MS = 2000;

/** Sends a notification with this payload on the channel, the way revocations are sent (through the service's pool). */
export type SendProbe = (payload: string) => Promise<unknown>;

export interface RevocationEvents {
  /** LISTEN is in place: every revocation committed from now on will be heard. */
  listening(): void;
  /** Revocations may be going unheard from now on. */
  lost(): void;
  revoked(keyId: string): void;
}

/**
 * LISTENs for key revocations on a connection of its own (not the pool's: a pooled connection is
 * shared, and a transaction-pooling PgBouncer cannot carry LISTEN), and reconnects with backoff.
 * It counts as listening only once it has heard a notification sent the way revocations are: a
 * DATABASE_LISTEN_URL naming another database, or a standby (which NOTIFY never reaches), would
 * otherwise hear nothing while seeming connected.
 */
export class RevocationListener {
  private readonly logger = new Logger('KeyRevocations');
  private client: pg.Client | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private outageLogged = false;
  private stopped = false;
  private awaitedProbe: { payload: string; heard: () => void } | undefined;
  listening = false;

  constructor(
    private readonly url: string,
    private readonly sendProbe: SendProbe,
    private readonly events: RevocationEvents,
  ) {}

  /** Resolves after the first attempt, listening or not: the service serves either way, verifying every key until it listens. */
  start(): Promise<void> {
    return this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.listening = false;
    if (client === undefined) return;
    // A graceful end waits for the server's answer, which a frozen connection never sends.
    const giveUp = setTimeout(() => client.connection.stream.destroy(), STOP_TIMEOUT_MS);
    await client.end().catch(() => undefined);
    clearTimeout(giveUp);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: HEARTBEAT_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'amc-revocation-listener',
    });
    this.client = client;
    client.on('notification', ({ channel, payload }) => {
      if (channel !== KEY_REVOCATION_CHANNEL || payload === undefined) return;
      if (!payload.startsWith(PROBE_PREFIX)) this.events.revoked(payload);
      else if (payload === this.awaitedProbe?.payload) this.awaitedProbe.heard();
    });
    client.on('error', (error) => this.lose(client, error));
    client.on('end', () => this.lose(client, new Error('the connection closed')));
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_REVOCATION_CHANNEL}`);
      await this.hearProbe();
    } catch (error) {
      this.lose(client, error);
      return;
    }
    if (this.client !== client) return;
    this.listening = true;
    this.retryMs = FIRST_RETRY_MS;
    if (this.outageLogged) this.logger.log('Listening for API key revocations again: verified keys are cached again');
    this.outageLogged = false;
    this.events.listening();
    this.heartbeat = setInterval(() => void client.query('SELECT 1').catch((error: unknown) => this.lose(client, error)), HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
  }

  private async hearProbe(): Promise<void> {
    const payload = `${PROBE_PREFIX}${randomBytes(8).toString('hex')}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      this.awaitedProbe = { payload, heard: resolve };
      timer = setTimeout(
        () => reject(new Error('a notification sent through DATABASE_URL was not heard: DATABASE_LISTEN_URL must name the same database, on the primary')),
        PROBE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.all([this.sendProbe(payload), heard]);
    } finally {
      clearTimeout(timer);
      this.awaitedProbe = undefined;
    }
  }

  /** Handles one outage once, however many of its events (error, end, a failed query) arrive. */
  private lose(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    clearInterval(this.heartbeat);
    this.listening = false;
    this.events.lost();
    client.connection.stream.destroy();
    if (this.stopped) return;
    if (!this.outageLogged) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`Not listening for API key revocations (${reason}): verifying every key against the database until listening again`);
      this.outageLogged = true;
    }
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }
}
