import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { presentedApiKey } from '../auth/bearer-token.js';
import { routeAccess } from '../auth/route-access.js';
import { clientAddress } from '../http/client-address.js';
import { AppConfig } from '../config/app-config.js';
import { type RateLimitPolicy, REQUESTS_POLICY_NAME, setRequestLimitHeaders, tooManyRequests } from './rate-limit-headers.js';
import type { Counter } from './guarded-limiter.js';
import { RateLimitStore } from './rate-limit-store.js';

/**
 * Counts requests per API key, before the API-key guard, so that a refused request costs no key lookup.
 * The bucket is the SHA-256 digest of the presented key (the digest its lookup uses: one bucket per
 * key, and the key itself is never kept); a request without a key is counted by its address.
 * Routes that need no key (/health) are not limited. Every counted response tells the client where
 * it stands (RateLimit-Policy and RateLimit, and RateLimit-Limit, -Remaining, -Reset).
 */
@Injectable()
export class ApiKeyRateLimitGuard implements CanActivate {
  private readonly limiter: Counter;
  private readonly policy: RateLimitPolicy;

  constructor(
    private readonly reflector: Reflector,
    store: RateLimitStore,
    config: AppConfig,
  ) {
    this.policy = { name: REQUESTS_POLICY_NAME, quota: config.rateLimitRequests, windowSeconds: config.rateLimitWindowMs / 1000 };
    this.limiter = store.limiter('requests', config.rateLimitRequests, config.rateLimitWindowMs);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (routeAccess(this.reflector, context).isPublic) return true;
    const http = context.switchToHttp();
    const response = http.getResponse<Response>();
    let counted: RateLimiterRes;
    try {
      counted = await this.limiter.consume(bucketOf(http.getRequest<Request>()));
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      setRequestLimitHeaders(response, this.policy, refused);
      const { quota, windowSeconds } = this.policy;
      throw tooManyRequests(
        response,
        refused,
        (seconds) => `Rate limit exceeded: at most ${quota} requests per ${windowSeconds} seconds for each API key; retry in ${seconds} seconds`,
      );
    }
    setRequestLimitHeaders(response, this.policy, counted);
    return true;
  }
}

function bucketOf(request: Request): string {
  const presented = presentedApiKey(request);
  return presented === undefined ? `address:${clientAddress(request)}` : `key:${presented.digest}`;
}
