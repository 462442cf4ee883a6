import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { BODY_LIMIT } from './body-limit.js';
import { pathOfNul, refuseUnpairedSurrogates } from './well-formed-json.js';

const parseJson = express.json({ limit: BODY_LIMIT, reviver: refuseUnpairedSurrogates });

/**
 * A request body is JSON or nothing, and JSON is an object: anything else is refused before it
 * reaches a handler. A request without a body (every GET) passes straight on, with no parser run.
 */
export const jsonObjectBody: RequestHandler = (request: Request, response: Response, next: NextFunction): void => {
  const hasBody = Number(request.header('content-length') ?? 0) > 0 || request.header('transfer-encoding') !== undefined;
  if (!hasBody) return next();
  if (!request.is('application/json')) {
    return next(new UnsupportedMediaTypeException(`Request bodies must be sent as application/json, not ${request.header('content-type') ?? 'without a content type'}`));
  }
  parseJson(request, response, (error?: unknown) => {
    if (error !== undefined) next(error);
    else if (Array.isArray(request.body)) next(new BadRequestException('The request body must be a JSON object, not an array'));
    else next(nulProblem(request.body));
  });
};

function nulProblem(body: unknown): BadRequestException | undefined {
  const path = pathOfNul(body);
  return path === undefined ? undefined : new BadRequestException(`${path} must not contain NUL characters`);
}
