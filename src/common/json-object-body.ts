import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { BODY_LIMIT } from './body-limit.js';
import { MAX_NESTING_DEPTH, jsonTextNestsDeeperThan } from './nesting-depth.js';
import { refuseUnpairedSurrogates } from './well-formed-json.js';

const parseJson = express.json({ limit: BODY_LIMIT, reviver: refuseUnpairedSurrogates, verify: refuseDeepNesting });

/** body-parser's check of the raw body before it parses it; what it throws with a status is answered with that status. */
function refuseDeepNesting(_request: Request, _response: Response, body: Buffer): void {
  if (jsonTextNestsDeeperThan(body, MAX_NESTING_DEPTH)) {
    throw Object.assign(new Error(`The request body nests arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`), { status: 400, expose: true });
  }
}

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
    else next();
  });
};
