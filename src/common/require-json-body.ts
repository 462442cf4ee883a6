import type { NextFunction, Request, Response } from 'express';
import { BadRequestException, UnsupportedMediaTypeException } from '@nestjs/common';

/** A body is JSON or nothing: anything else is refused before it reaches a parser or a handler. */
export function requireJsonBody(request: Request, _response: Response, next: NextFunction): void {
  const length = Number(request.header('content-length') ?? 0);
  const hasBody = length > 0 || request.header('transfer-encoding') !== undefined;
  if (hasBody && !request.is('application/json')) {
    next(new UnsupportedMediaTypeException(`Request bodies must be sent as application/json, not ${request.header('content-type') ?? 'without a content type'}`));
    return;
  }
  next();
}

/** Every body of this API is a JSON object; a top-level array is refused once parsed. */
export function requireObjectBody(request: Request, _response: Response, next: NextFunction): void {
  if (Array.isArray(request.body)) {
    next(new BadRequestException('The request body must be a JSON object, not an array'));
    return;
  }
  next();
}
