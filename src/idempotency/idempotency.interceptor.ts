import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, concatMap, from, type Observable, of, throwError } from 'rxjs';
import type { Principal } from '../auth/principal.js';
import { ConflictError, ValidationError } from '../common/errors.js';
import { digestOfBody, IDEMPOTENCY_KEY_HEADER, problemWithKey } from './idempotency-key.js';
import { IdempotencyStore, type KeyUse } from './idempotency.store.js';

/** On the routes marked @Idempotent(), a request with an Idempotency-Key runs at most once per key and body. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next.handle();
    const problem = problemWithKey(key);
    if (problem !== undefined) throw new ValidationError(problem);

    const use: KeyUse = {
      caller: callerOf(request.principal),
      route: routeOf(request),
      key,
      requestDigest: digestOfBody(request.body),
    };
    const response = context.switchToHttp().getResponse<Response>();
    const outcome = await this.store.claim(use);
    switch (outcome.kind) {
      case 'other-body':
        throw new ConflictError(`This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request body`);
      case 'in-progress':
        throw new ConflictError(`A request with this ${IDEMPOTENCY_KEY_HEADER} is still in progress; retry it after a moment`);
      case 'replay':
        response.status(outcome.status).setHeader('Idempotent-Replayed', 'true');
        return of(outcome.body);
      case 'claimed':
        return next.handle().pipe(
          concatMap(async (body) => {
            await this.store.complete(use, outcome.token, response.statusCode, body);
            return body;
          }),
          catchError((error: unknown) =>
            from(this.store.release(use, outcome.token).catch(() => undefined)).pipe(concatMap(() => throwError(() => error))),
          ),
        );
    }
  }
}

/** Keys are scoped to the owner of the API key: its workspace, or its organization for an ORGANIZATION key. */
function callerOf(principal: Principal | undefined): string {
  if (principal === undefined) throw new Error('An idempotent route needs an authenticated caller');
  return principal.workspaceId === null ? `organization:${principal.organizationId}` : `workspace:${principal.workspaceId}`;
}

/** The method and path as Express matches them: case-insensitive, a trailing slash optional. */
function routeOf(request: Request): string {
  return `${request.method} ${request.path.replace(/\/+$/, '').toLowerCase()}`;
}
