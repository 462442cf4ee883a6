import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { ServiceMetrics } from './service-metrics.js';

/** GET /metrics on METRICS_PORT, apart from the API's port; nothing else is served there. */
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private readonly server: Server;

  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly requestedPort: number,
  ) {
    this.server = createServer((request, response) => void this.answer(request, response));
  }

  /** The port it listens on (the one picked by the system when METRICS_PORT is 0). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.server.listen(this.requestedPort);
    await once(this.server, 'listening');
    this.logger.log(`Metrics on port ${this.port} at /metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ error: 'Not Found', message: `Cannot ${request.method} ${path}` }));
      return;
    }
    try {
      const body = await this.metrics.exposition();
      response.writeHead(200, { 'Content-Type': Registry.PROMETHEUS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error(`Collecting metrics failed: ${error instanceof Error ? error.message : String(error)}`);
      response.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ error: 'Internal Server Error', message: 'Collecting metrics failed' }));
    }
  }
}
