/* eslint-disable tenancy/unscoped-database-access -- the pool's state, for its gauges */
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { KeyRevocations } from '../auth/key-revocations.js';
import type { AppConfig } from '../config/app-config.js';
import { Database } from '../database/database.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { ServiceMetrics } from './service-metrics.js';

/** Prometheus metrics at GET /metrics: on the API's port, or alone on METRICS_HOST:METRICS_PORT when that port is set. */
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const metrics: Provider = {
      provide: ServiceMetrics,
      inject: [Database, KeyRevocations, RateLimitStore],
      useFactory: (database: Database, revocations: KeyRevocations, rateLimits: RateLimitStore) => new ServiceMetrics(database, revocations, rateLimits),
    };
    const { metricsPort, metricsHost } = config;
    if (metricsPort === undefined) {
      return { module: MetricsModule, imports: [AuthModule], controllers: [MetricsController], providers: [metrics], exports: [ServiceMetrics] };
    }
    const server: Provider = {
      provide: MetricsServer,
      inject: [ServiceMetrics],
      useFactory: (serviceMetrics: ServiceMetrics) => new MetricsServer(serviceMetrics, metricsPort, metricsHost),
    };
    return { module: MetricsModule, imports: [AuthModule], providers: [metrics, server], exports: [ServiceMetrics] };
  }
}
