import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { logRequest } from '../logging/request-logging.js';
import { UNMATCHED_ROUTE } from '../metrics/request-tallies.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { Platform } from '../platform/platform.js';
import { limitUnreadBody } from './http-deadlines.js';
import { assignRequestId } from './request-id.js';
import { setSecurityHeaders } from './security-headers.js';

/**
 * Mounted first, so that requests refused before routing get it too: the request's id and the
 * security headers, then, once the response is done, its log line and its metrics, and a bound on
 * the body it may have left unread. One middleware and one listener for all of it: each is paid on
 * every request.
 */
export function stampAndRecord(logger: Logger, metrics: ServiceMetrics, platform: Platform) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = performance.now();
    assignRequestId(request, response);
    setSecurityHeaders(request, response);
    // 'close' comes once per response: on() spares the wrapper once() allocates.
    response.on('close', () => {
      const durationMs = performance.now() - started;
      // The matched pattern, never the raw URL: ids must not become metric labels. Nest answers a
      // path under the global prefix that no route matches from a catch-all of its own, in a router
      // mounted at the prefix: every route of the API is the app's own, so that one is no match.
      const route = request.baseUrl === '' ? (request.route as { path?: string } | undefined)?.path : undefined;
      if (response.writableFinished) metrics.recordRequest(request.method, route ?? UNMATCHED_ROUTE, response.statusCode, durationMs / 1000);
      logRequest(platform, logger, request, response, route, Math.round(durationMs));
      limitUnreadBody(request);
    });
    next();
  };
}
