/* eslint-disable tenancy/unscoped-database-access -- pg's DatabaseError only, to tell a refusal by the database; no query */
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable, of } from 'rxjs';
import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import type { Principal } from '../auth/principal.js';
import { presentedApiKey } from '../auth/bearer-token.js';
import { ConflictError, ValidationError } from '../errors/domain-errors.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/request-transaction.js';
import { canonicalText, IDEMPOTENCY_KEY_HEADER, problemWithKey, RecordSecrets } from './idempotency-key.js';
import { IdempotencyStore, IN_PROGRESS_MESSAGE, type KeyUse } from './idempotency.store.js';

/**
 * On the routes marked @Idempotent(), a request with an Idempotency-Key runs at most once per key
 * and body. The request's writes and the record of its response commit in one transaction: a
 * crash or a failure between them leaves neither. The claim is released only when the request
 * certainly wrote nothing; when its COMMIT went unanswered the key stays claimed: a retry is
 * answered 409, then replayed if the COMMIT was done, or takes the claim over if it was not.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly transactions: Transactions,
    private readonly config: AppConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const key = request.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next.handle();
    const problem = problemWithKey(key);
    if (problem !== undefined) throw new ValidationError(problem);

    const use = this.useOf(request, key);
    const response = context.switchToHttp().getResponse<Response>();
    const outcome = await this.store.claim(use);
    switch (outcome.kind) {
      case 'other-body':
        throw new ConflictError(`This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request body`);
      case 'in-progress':
        throw new ConflictError(IN_PROGRESS_MESSAGE);
      case 'replay':
        response.status(outcome.status).setHeader('Idempotent-Replayed', 'true');
        return of(outcome.body);
      case 'claimed':
        return from(this.runClaimed(use, outcome.token, next, response));
    }
  }

  private async runClaimed(use: KeyUse, token: string, next: CallHandler, response: Response): Promise<unknown> {
    let committing = false;
    try {
      return await this.transactions.runJoined(async (transaction) => {
        const body: unknown = await lastValueFrom(next.handle());
        await this.store.complete(transaction, use, token, response.statusCode, body);
        committing = true;
        return body;
      });
    } catch (error) {
      if (!committing || refusedByDatabase(error)) await this.store.release(use, token).catch(() => undefined);
      throw error;
    }
  }

  private useOf(request: Request, key: string): KeyUse {
    const apiKey = presentedApiKey(request)?.value;
    if (apiKey === undefined) throw new Error('An idempotent route needs an authenticated caller');
    const scope = { apiKey, caller: callerOf(request.principal), route: routeOf(request), key };
    return {
      caller: scope.caller,
      route: scope.route,
      canonicalBody: canonicalText(request.body),
      secrets: new RecordSecrets(this.config.encryptionKey, scope),
      retiredSecrets: this.config.previousEncryptionKeys.map((retired) => new RecordSecrets(retired, scope)),
    };
  }
}

/** PostgreSQL answered with an error: a transaction whose COMMIT it refused was rolled back. */
function refusedByDatabase(error: unknown): boolean {
  return error instanceof QueryFailedError && error.driverError instanceof pg.DatabaseError;
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
