import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { clientAddress } from '../http/client-address.js';
import type { Platform } from '../platform/platform.js';
import { boundedField, MAX_LOGGED_PATH, MAX_LOGGED_USER_AGENT } from './bounded-field.js';

/** What ends a request target's path: its query, or a fragment a raw client may send along. */
const PATH_END = /[?#]/;

/**
 * The one line of a finished request (or of one the client went away from), with the request id
 * assignRequestId gave it: no body, no query string or fragment, no header but the user agent.
 * Every field a caller controls is bounded (the path and user agent cut, the address canonical, the
 * id well-formed), so a line stays under about 1.2 KB whatever the request.
 * `route` is the pattern that matched (e.g. /api/cloud/tasks/:taskId), absent when none did;
 * `clientAddress` is absent when the client went away before it could be read.
 * Written as `platform` writes a line of pino's format (the tuned one puts it together itself).
 */
export function logRequest(platform: Platform, logger: Logger, request: Request, response: Response, route: string | undefined, durationMs: number): void {
  const level = response.statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const message = level === 'error' ? 'request failed' : response.writableFinished ? 'request completed' : 'request aborted';
  const userAgent = request.header('user-agent');
  // Empty once the client has gone away: its socket forgets the peer.
  const address = clientAddress(request);
  platform.logLine(
    logger,
    level,
    {
      requestId: request.id,
      method: request.method,
      route,
      path: boundedField(request.originalUrl.split(PATH_END, 1)[0], MAX_LOGGED_PATH),
      clientAddress: address === '' ? undefined : address,
      status: response.statusCode,
      durationMs,
      userAgent: userAgent === undefined ? undefined : boundedField(userAgent, MAX_LOGGED_USER_AGENT),
    },
    message,
  );
}
