import type { NextFunction, Request, Response } from 'express';
import { type ServiceMetrics, UNMATCHED_ROUTE } from './service-metrics.js';

/**
 * Express middleware, mounted first, that times every response. The route label is the matched
 * pattern (`/api/cloud/assistants/:assistantId`), never the raw URL, so ids never become labels.
 */
export function recordRequestMetrics(metrics: ServiceMetrics) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (request.route as { path?: unknown } | undefined)?.path;
      metrics.recordRequest(request.method, typeof route === 'string' ? route : UNMATCHED_ROUTE, response.statusCode, seconds);
    });
    next();
  };
}
