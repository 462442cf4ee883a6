import type { NextFunction, Request, Response } from 'express';
import { sendError } from '../http/all-exceptions.filter.js';

/**
 * What the page at /docs loads: Swagger UI's stylesheet and bundles, its favicons, and the
 * initializer @nestjs/swagger writes. The rest of the swagger-ui-dist folder (its README,
 * package.json, source maps, the Petstore initializer, its own index.html) is not served.
 */
const SWAGGER_UI_FILES = new Set([
  '/',
  '/swagger-ui.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-standalone-preset.js',
  '/swagger-ui-init.js',
  '/favicon-16x16.png',
  '/favicon-32x32.png',
]);

/** Mounted at /docs before Swagger UI's routes and static files: anything else there is a 404 like any unknown route. */
export function onlySwaggerUiFiles(request: Request, response: Response, next: NextFunction): void {
  if (SWAGGER_UI_FILES.has(request.path)) next();
  else sendError(response, 404, `Cannot ${request.method} ${request.baseUrl}${request.path}`);
}
