import type { Request, Response } from 'express';
import { sendError } from './all-exceptions.filter.js';

/** Nest answers unknown routes only under the global prefix; this answers the rest, mounted after every route. */
export function answerUnknownRoute(request: Request, response: Response): void {
  sendError(response, 404, `Cannot ${request.method} ${request.path}`);
}
