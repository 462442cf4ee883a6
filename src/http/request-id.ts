import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    /** Correlates the response, the logs and any error report of one request. */
    id: string;
  }
}

const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts the caller's X-Request-Id when well-formed, else makes one, and echoes it on the response. */
export function assignRequestId(request: Request, response: Response): void {
  const offered = request.header('x-request-id');
  request.id = offered !== undefined && WELL_FORMED_REQUEST_ID.test(offered) ? offered : randomUUID();
  response.setHeader('X-Request-Id', request.id);
}
