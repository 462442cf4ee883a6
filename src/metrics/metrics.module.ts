import { type DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsServer } from './metrics-server.js';
import { ServiceMetrics } from './service-metrics.js';

/** Prometheus metrics at GET /metrics: on the API's port, or alone on METRICS_PORT when that is set. */
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const metrics = { provide: ServiceMetrics, inject: [getDataSourceToken()], useFactory: (dataSource: DataSource) => new ServiceMetrics(dataSource) };
    if (config.metricsPort === undefined) {
      return { module: MetricsModule, controllers: [MetricsController], providers: [metrics], exports: [ServiceMetrics] };
    }
    const port = config.metricsPort;
    const server = { provide: MetricsServer, inject: [ServiceMetrics], useFactory: (m: ServiceMetrics) => new MetricsServer(m, port) };
    return { module: MetricsModule, providers: [metrics, server], exports: [ServiceMetrics] };
  }
}
