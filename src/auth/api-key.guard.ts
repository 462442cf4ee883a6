import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { ApiKeyType } from '../keys/api-key-type.js';
import { clientAddress } from '../http/client-address.js';
import { ForbiddenError, UnauthenticatedError } from '../errors/domain-errors.js';
import { announcePolicy, tooManyRequests } from '../rate-limit/rate-limit-headers.js';
import { ApiKeyVerifier } from './api-key-verifier.js';
import { AuthFailureLimiter } from './auth-failure-limiter.js';
import { type PresentedKey, presentedApiKey } from './bearer-token.js';
import type { Principal } from './principal.js';
import { routeAccess } from './route-access.js';

/** Global: every route needs an API key of an accepted kind unless it is marked @PublicRoute(). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly failures: AuthFailureLimiter,
  ) {}

  /** Synchronous for a key verified lately: most requests then take no promise here. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const { isPublic, acceptedKeyTypes: accepted } = routeAccess(this.reflector, context);
    if (isPublic) return true;

    const request = context.switchToHttp().getRequest<Request>();
    const presented = presentedApiKey(request);
    const cached = presented === undefined ? undefined : this.verifier.cached(presented);
    if (cached !== undefined) return admit(request, cached, accepted);
    return this.lookUp(presented, request, context, accepted);
  }

  /**
   * A key not in the key cache: refused without a lookup while its address is blocked for failing
   * too often, unless it was let in from there lately.
   */
  private async lookUp(presented: PresentedKey | undefined, request: Request, context: ExecutionContext, accepted: readonly ApiKeyType[]): Promise<true> {
    const address = clientAddress(request);
    const blocked = await this.failures.isBlocked(address, presented?.digest);
    if (blocked !== undefined) {
      const response = context.switchToHttp().getResponse<Response>();
      const { quota: limit, windowSeconds } = this.failures.policy;
      announcePolicy(response, this.failures.policy, blocked);
      throw tooManyRequests(
        response,
        blocked,
        (seconds) => `Too many failed authentications from this address: at most ${limit} per ${windowSeconds} seconds; retry in ${seconds} seconds`,
      );
    }
    const principal = presented === undefined ? null : await this.verifier.verify(presented);
    if (presented === undefined || principal === null) {
      await this.failures.recordFailure(address, presented?.digest);
      throw new UnauthenticatedError();
    }
    admit(request, principal, accepted);
    // Only a key the route let in may later pass a blocked address: PUBLIC keys, which no route takes, could be made by the thousand.
    await this.failures.recordAdmission(address, presented.digest);
    return true;
  }
}

/** Lets the caller in when its kind of key is one the route accepts. */
function admit(request: Request, principal: Principal, accepted: readonly ApiKeyType[]): true {
  if (!accepted.includes(principal.type)) {
    throw new ForbiddenError(`This operation does not accept ${principal.type} API keys; it accepts ${accepted.join(' and ')} keys`);
  }
  request.principal = principal;
  return true;
}
