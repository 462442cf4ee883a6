import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { answerUnparsableRequestsWithJson } from '../http/unparsable-requests.js';
import { deadlineOptions, limitUnreadBody } from '../http/http-deadlines.js';
import { originFormOf } from '../http/request-target.js';
import type { ServiceMetrics } from './service-metrics.js';

/** A scrape has no body: its request must be in within the headers' deadline and a second. */
const SCRAPE_BODY_TIMEOUT_MS = 1_000;

/** GET /metrics on METRICS_HOST:METRICS_PORT, apart from the API's port; nothing else is served there. */
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private readonly server: Server;

  constructor(
    private readonly metrics: ServiceMetrics,
    private readonly requestedPort: number,
    private readonly host: string,
  ) {
    this.server = createServer(deadlineOptions(SCRAPE_BODY_TIMEOUT_MS), (request, response) => void this.answer(request, response));
    answerUnparsableRequestsWithJson(this.server);
  }

  /** The port it listens on (the one picked by the system when METRICS_PORT is 0). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.server.listen(this.requestedPort, this.host);
    await once(this.server, 'listening');
    this.logger.log(`Metrics on ${this.host} port ${this.port} at /metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Never throws: an exception here would escape every handler and end the process. */
  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.once('close', () => limitUnreadBody(request));
    try {
      const path = originFormOf(request.url ?? '/').split(/[?#]/)[0];
      if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        reply(response, 404, { error: 'Not Found', message: `Cannot ${request.method} ${path}` });
        return;
      }
      const body = await this.metrics.exposition();
      response.writeHead(200, { 'Content-Type': Registry.PROMETHEUS_CONTENT_TYPE, 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error(`Answering a metrics request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reply(response, 500, { error: 'Internal Server Error', message: 'Collecting metrics failed' });
      else response.destroy();
    }
  }
}

function reply(response: ServerResponse, status: number, body: { error: string; message: string }): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}
