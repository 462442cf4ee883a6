import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { clientAddress } from '../http/client-address.js';
import { boundedField, MAX_LOGGED_PATH, MAX_LOGGED_USER_AGENT } from './bounded-field.js';
import { writeOnto } from './root-logger.js';

/** What ends a request target's path: its query, or a fragment a raw client may send along. */
const PATH_END = /[?#]/;

/** The time field, formatted once per millisecond: a busy service logs several requests in each. */
let formattedAt = 0;
let formatted = '';

function isoTimeNow(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formattedAt = now;
    formatted = new Date(now).toISOString();
  }
  return formatted;
}

/**
 * The one line of a finished request (or of one the client went away from), with the request id
 * assignRequestId gave it: no body, no query string or fragment, no header but the user agent.
 * Every field a caller controls is bounded (the path and user agent cut, the address canonical, the
 * id well-formed), so a line stays under about 1.2 KB whatever the request.
 * `route` is the pattern that matched (e.g. /api/cloud/tasks/:taskId), absent when none did;
 * `clientAddress` is absent when the client went away before it could be read.
 *
 * A line of pino's JSON format (level, time, pid, the fields, msg), but put together here: every
 * request writes one, and pino's general-purpose serialiser made it about a tenth of the CPU that
 * GET /tasks/{id} costs. Each field is a string written with JSON.stringify, or a number.
 */
export function logRequest(logger: Logger, request: Request, response: Response, route: string | undefined, durationMs: number): void {
  const level = response.statusCode >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const message = level === 'error' ? 'request failed' : response.writableFinished ? 'request completed' : 'request aborted';
  const userAgent = request.header('user-agent');
  // Empty once the client has gone away: its socket forgets the peer.
  const address = clientAddress(request);
  const line =
    `{"level":${logger.levels.values[level]},"time":"${isoTimeNow()}","pid":${process.pid},` +
    `"requestId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},` +
    (route === undefined ? '' : `"route":${JSON.stringify(route)},`) +
    `"path":${JSON.stringify(boundedField(request.originalUrl.split(PATH_END, 1)[0], MAX_LOGGED_PATH))},` +
    (address === '' ? '' : `"clientAddress":${JSON.stringify(address)},`) +
    `"status":${response.statusCode},"durationMs":${durationMs},` +
    (userAgent === undefined ? '' : `"userAgent":${JSON.stringify(boundedField(userAgent, MAX_LOGGED_USER_AGENT))},`) +
    `"msg":"${message}"}\n`;
  writeOnto(logger, line);
}
