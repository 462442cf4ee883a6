import type { Request, Response } from 'express';
import type { Logger } from 'pino';

/**
 * The one line of a finished request (or of one the client went away from), with the request id
 * assignRequestId gave it: no body, no query string, no header but the user agent.
 * `route` is the pattern that matched (e.g. /api/cloud/tasks/:taskId), absent when none did.
 */
export function logRequest(logger: Logger, request: Request, response: Response, route: string | undefined, durationMs: number): void {
  const summary = {
    requestId: request.id,
    method: request.method,
    route,
    path: request.originalUrl.split('?')[0],
    clientAddress: request.ip,
    status: response.statusCode,
    durationMs,
    userAgent: request.header('user-agent'),
  };
  if (response.statusCode >= 500) logger.error(summary, 'request failed');
  else logger.info(summary, response.writableFinished ? 'request completed' : 'request aborted');
}
