import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const REQUEST_ID_KEY = 'requestId';

/** What the line of a finished request says: no body, no query string, no header but the user agent. */
function requestSummary(request: Request, response: Response, durationMs: number): Record<string, unknown> {
  return {
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
 * One line per request when its response is finished, carrying the request id that
 * assignRequestId gave it; req.log is the same logger bound to that id, for the logs made while handling it.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp<Request, Response>({
    logger,
    genReqId: (request) => request.id,
    customAttributeKeys: { reqId: REQUEST_ID_KEY },
    quietReqLogger: true,
    quietResLogger: true,
    customLogLevel: (_, response, error) => (error !== undefined || response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (_, response) => (response.writableEnded ? 'request completed' : 'request aborted'),
    customErrorMessage: () => 'request failed',
    customSuccessObject: (request, response, value: { responseTime: number }) =>
      requestSummary(request, response, value.responseTime),
    customErrorObject: (request, response, _error, value: { responseTime: number }) =>
      requestSummary(request, response, value.responseTime),
  }) as unknown as RequestHandler;
}
