import { type CanActivate, type ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { digestApiKey } from '../auth/api-key-material.js';
import { IS_PUBLIC_ROUTE } from '../auth/auth.decorators.js';
import { presentedApiKey } from '../auth/bearer-token.js';
import { FixedWindowCounter } from './fixed-window-counter.js';

/**
 * Counts requests per API key, before the API-key guard, so that a refused request costs no key lookup.
 * The bucket is the SHA-256 digest of the presented key (the digest its lookup uses: one bucket per
 * key, and the key itself is never kept); a request without a key is counted by its address.
 * Routes that need no key (/health) are not limited.
 */
@Injectable()
export class ApiKeyRateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly counter: FixedWindowCounter,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const counted = this.counter.hit(bucketOf(request));
    if (counted.allowed) return true;
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(counted.retryAfterSeconds));
    const { limit, windowMs } = this.counter;
    throw new HttpException(
      `Rate limit exceeded: at most ${limit} requests per ${windowMs / 1000} seconds for each API key; ` +
        `retry in ${counted.retryAfterSeconds} seconds`,
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

function bucketOf(request: Request): string {
  const presented = presentedApiKey(request);
  return presented === undefined ? `address:${request.ip}` : `key:${digestApiKey(presented)}`;
}
