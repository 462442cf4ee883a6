import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/** A JSON answer never loads, runs or frames anything. */
const apiHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
});

/**
 * Swagger UI loads its scripts and stylesheet from /docs itself, but has inline <style> blocks and data: images.
 * No upgrade-insecure-requests: the UI must also work when the service is reached over plain HTTP.
 */
const docsHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
});

const SWAGGER_UI = /^\/docs(\/|$)/;

/** helmet's protective headers on every response (and no X-Powered-By), with the policy its content needs. */
export function securityHeaders(request: Request, response: Response, next: NextFunction): void {
  (SWAGGER_UI.test(request.path) ? docsHeaders : apiHeaders)(request, response, next);
}
