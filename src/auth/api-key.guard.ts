import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { ApiKeyType } from '../api-keys/api-key-type.js';
import { ForbiddenError, UnauthenticatedError } from '../common/errors.js';
import { ApiKeyVerifier } from './api-key-verifier.js';
import { ACCEPTED_KEY_TYPES, DEFAULT_ACCEPTED_KEY_TYPES, IS_PUBLIC_ROUTE } from './auth.decorators.js';
import { presentedApiKey } from './bearer-token.js';

/** Global: every route needs an API key of an accepted kind unless it is marked @PublicRoute(). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_ROUTE, targets)) return true;

    const request = context.switchToHttp().getRequest<Request>();
    const presented = presentedApiKey(request);
    const principal = presented === undefined ? null : await this.verifier.verify(presented);
    if (principal === null) throw new UnauthenticatedError();

    const accepted =
      this.reflector.getAllAndOverride<ApiKeyType[]>(ACCEPTED_KEY_TYPES, targets) ?? DEFAULT_ACCEPTED_KEY_TYPES;
    if (!accepted.includes(principal.type)) {
      throw new ForbiddenError(
        `This operation does not accept ${principal.type} API keys; it accepts ${accepted.join(' and ')} keys`,
      );
    }
    request.principal = principal;
    return true;
  }
}
