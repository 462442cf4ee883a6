import type { NextFunction, Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

/** What the line of a finished request says: no body, no query string, no header but the user agent. */
function requestSummary(request: Request, response: Response, durationMs: number): Record<string, unknown> {
  return {
    requestId: request.id,
    method: request.method,
    // The pattern that matched (e.g. /api/cloud/tasks/:taskId), absent when none did.
    route: request.route?.path as string | undefined,
    path: request.originalUrl.split('?')[0],
    status: response.statusCode,
    durationMs,
    userAgent: request.header('user-agent'),
  };
}

/**
 * One line per request once its response is done (or the client went away), carrying the request
 * id that assignRequestId gave it. Mounted ahead of the body checks, so requests refused there are
 * logged too.
 */
export function requestLogging(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = performance.now();
    response.once('close', () => {
      const summary = requestSummary(request, response, Math.round(performance.now() - started));
      if (response.statusCode >= 500) logger.error(summary, 'request failed');
      else logger.info(summary, response.writableFinished ? 'request completed' : 'request aborted');
    });
    next();
  };
}
