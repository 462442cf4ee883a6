import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { PublicRoute } from '../auth/auth.decorators.js';
import { ServiceMetrics } from './service-metrics.js';
import { IgnoresQueryParameters } from '../http/query-parameters.js';

/** Operational, like /health, but left out of the API document: METRICS_PORT may move it off this port. */
@ApiExcludeController()
@PublicRoute()
@IgnoresQueryParameters()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ServiceMetrics) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.exposition();
  }
}
