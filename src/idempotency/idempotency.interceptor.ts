import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { Principal } from '../auth/principal.js';
import { presentedApiKey } from '../auth/bearer-token.js';
import { isRefusedByDatabase } from '../database/database-errors.js';
import { ConflictError, ValidationError } from '../errors/domain-errors.js';
import { Transactions } from '../database/transactions.js';
import { canonicalText, IDEMPOTENCY_KEY_HEADER, problemWithKey, RecordSecrets } from './idempotency-key.js';
import { IdempotencySecret } from './idempotency-secret.js';
import { IdempotencyStore, IN_PROGRESS_MESSAGE, type KeyUse } from './idempotency.store.js';

/**
 * On the routes marked @Idempotent(), a request with an Idempotency-Key runs at most once per key
 * and body. The key is claimed when the request sends its first statement, after its body is
 * parsed and validated: a request waiting for validation holds neither a claim nor a connection.
 * The request's writes and the record of its response commit in one transaction: a crash or a
 * failure between them leaves neither. The claim is released only when the request certainly
 * wrote nothing; when its COMMIT went unanswered the key stays claimed: a retry is answered 409,
 * then replayed if the COMMIT was done, or takes the claim over if it was not.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly transactions: Transactions,
    private readonly secret: IdempotencySecret,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<Request>();
    const sent = request.headersDistinct[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    if (sent === undefined) return next.handle();
    // Node joins repeated headers with ", ": two keys would be read as one key that neither sent.
    if (sent.length > 1) throw new ValidationError(`${IDEMPOTENCY_KEY_HEADER} must be sent once`);
    const [key] = sent;
    const problem = problemWithKey(key);
    if (problem !== undefined) throw new ValidationError(problem);
    return from(this.runOnce(request, key, next, context.switchToHttp().getResponse<Response>()));
  }

  private async runOnce(request: Request, key: string, next: CallHandler, response: Response): Promise<unknown> {
    const use = await this.useOf(request, key);
    let token: string | undefined;
    let committing = false;
    try {
      return await this.transactions.runJoined(() => lastValueFrom(next.handle()), {
        beforeOpening: async () => {
          token = await this.claim(use);
        },
        beforeCommit: async (transaction, body) => {
          await this.store.complete(transaction, use, token!, response.statusCode, body);
          committing = true;
        },
      });
    } catch (error) {
      if (error instanceof Replay) {
        response.status(error.status).setHeader('Idempotent-Replayed', 'true');
        return error.body;
      }
      if (token !== undefined && (!committing || isRefusedByDatabase(error))) await this.store.release(use, token).catch(() => undefined);
      throw error;
    }
  }

  /** The claim's token; else the request goes no further than its first statement. */
  private async claim(use: KeyUse): Promise<string> {
    const outcome = await this.store.claim(use);
    switch (outcome.kind) {
      case 'claimed':
        return outcome.token;
      case 'replay':
        throw new Replay(outcome.status, outcome.body);
      case 'other-body':
        throw new ConflictError(`This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request body`);
      case 'in-progress':
        throw new ConflictError(IN_PROGRESS_MESSAGE);
    }
  }

  private async useOf(request: Request, key: string): Promise<KeyUse> {
    const apiKey = presentedApiKey(request)?.value;
    if (apiKey === undefined) throw new Error('An idempotent route needs an authenticated caller');
    const scope = { apiKey, caller: callerOf(request.principal), route: routeOf(request), key };
    return {
      caller: scope.caller,
      route: scope.route,
      canonicalBody: canonicalText(request.body),
      secrets: new RecordSecrets(await this.secret.value(), scope),
    };
  }
}

/** Ends a request at its first statement: its key was used before with this body, and this is the response. */
class Replay extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('Replayed');
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
