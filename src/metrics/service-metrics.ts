import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** The label of a request that no route matched, or that was refused before routing (415, 413, malformed JSON). */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * Every metric of one app instance, in a registry of its own (not prom-client's global one),
 * so that two apps in one process (the e2e suites) never register a metric twice.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: `HTTP requests answered, by method, route pattern (${UNMATCHED_ROUTE} when no route matched) and status code`,
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  private readonly durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  constructor(dataSource: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    const pool = () => (dataSource.driver as PostgresDriver).master as Pool | undefined;
    this.poolGauge('db_pool_connections', 'Connections the database pool holds open (idle and in use)', () => pool()?.totalCount);
    this.poolGauge('db_pool_idle_connections', 'Open connections of the database pool that no query is using', () => pool()?.idleCount);
    this.poolGauge('db_pool_waiting_requests', 'Queries waiting for a connection of the database pool', () => pool()?.waitingCount);
    this.poolGauge('db_pool_max_connections', 'The most connections the database pool opens', () => pool()?.options.max);
  }

  recordRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
  }

  private poolGauge(name: string, help: string, read: () => number | undefined): void {
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
