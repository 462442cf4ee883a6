/* eslint-disable tenancy/unscoped-database-access -- the pool's state, for its gauges */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { KeyRevocations } from '../auth/key-revocations.js';
import type { Database } from '../database/database.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { RequestTallies } from './request-tallies.js';

/**
 * Every metric of one app instance, in a registry of its own (not prom-client's global one),
 * so that two apps in one process (the e2e suites) never register a metric twice.
 */
export class ServiceMetrics {
  private readonly registry = new Registry();

  private readonly requests = new RequestTallies();

  constructor(database: Pick<Database, 'poolState'>, revocations: Pick<KeyRevocations, 'listening'>, rateLimits: Pick<RateLimitStore, 'degraded'>) {
    collectDefaultMetrics({ register: this.registry });
    this.gauge('db_pool_connections', 'Connections the database pool holds open (idle and in use)', () => database.poolState.total);
    this.gauge('db_pool_idle_connections', 'Open connections of the database pool that no query is using', () => database.poolState.idle);
    this.gauge('db_pool_waiting_requests', 'Queries waiting for a connection of the database pool', () => database.poolState.waiting);
    this.gauge('db_pool_max_connections', 'The most connections the database pool opens', () => database.poolState.max);
    this.gauge(
      'api_key_revocations_listening',
      '1 while this replica hears every API key revocation and so caches verified keys; 0 while it verifies every key against the database',
      () => Number(revocations.listening),
    );
    this.gauge(
      'rate_limit_store_degraded',
      'Whether REDIS_URL is set but Redis cannot be reached, so that each process counts rate limits on its own (1) or not (0)',
      () => Number(rateLimits.degraded),
    );
  }

  recordRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.record(method, route, status, seconds);
  }

  /** Every metric, in the Prometheus text format. */
  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${this.requests.exposition()}`;
  }

  private gauge(name: string, help: string, read: () => number | undefined): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read() ?? 0);
      },
    });
  }
}
