import { HttpException, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import type { RateLimiterRes } from 'rate-limiter-flexible';

/** One limit as the IETF draft names it: a policy with its quota per window. */
export interface RateLimitPolicy {
  name: string;
  quota: number;
  windowSeconds: number;
}

export const REQUESTS_POLICY_NAME = 'requests';
export const AUTH_FAILURES_POLICY_NAME = 'auth-failures';

const UNLESS_OFF = 'Absent when RATE_LIMIT_REQUESTS is 0 (no limit).';

/** As documented in openapi.json on every response of every route that takes an API key. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description:
      `The limits that apply, as in the IETF RateLimit header fields draft (draft-ietf-httpapi-ratelimit-headers): a list of ` +
      `policies, each its name with q (the quota) and w (the window in seconds). "${REQUESTS_POLICY_NAME}": RATE_LIMIT_REQUESTS ` +
      `per RATE_LIMIT_WINDOW_SECONDS for the API key (absent when RATE_LIMIT_REQUESTS is 0). "${AUTH_FAILURES_POLICY_NAME}": ` +
      `AUTH_FAILURE_LIMIT failed authentications per AUTH_FAILURE_WINDOW_SECONDS for the client address, named only on the 429 it answers.`,
    schema: { type: 'string', example: `"${REQUESTS_POLICY_NAME}";q=3000;w=10` },
  },
  RateLimit: {
    description:
      'Where the caller stands in each policy named by RateLimit-Policy, as in the same draft: the policy name with r (what is left ' +
      'of the quota) and t (seconds until the window starts over).',
    schema: { type: 'string', example: `"${REQUESTS_POLICY_NAME}";r=2999;t=10` },
  },
  'RateLimit-Limit': {
    description: `Requests the API key may make in the current window (RATE_LIMIT_REQUESTS): the request limit's, also on a 429 of another policy. ${UNLESS_OFF}`,
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Remaining': {
    description: `Requests left to the API key in the current window. ${UNLESS_OFF}`,
    schema: { type: 'integer', minimum: 0 },
  },
  'RateLimit-Reset': {
    description: `Seconds until the current window ends and the count starts over. ${UNLESS_OFF}`,
    schema: { type: 'integer', minimum: 0 },
  },
};

/**
 * The request limit's fields: RateLimit-Limit, -Remaining and -Reset (the draft's earlier form,
 * kept for clients that read it), and the draft's RateLimit-Policy and RateLimit.
 */
export function setRequestLimitHeaders(response: Response, policy: RateLimitPolicy, counted: RateLimiterRes): void {
  response.setHeader('RateLimit-Limit', policy.quota);
  response.setHeader('RateLimit-Remaining', counted.remainingPoints);
  response.setHeader('RateLimit-Reset', secondsToReset(counted));
  announcePolicy(response, policy, counted);
}

/** Adds a policy to RateLimit-Policy and RateLimit, after those another limit may have named already. */
export function announcePolicy(response: Response, policy: RateLimitPolicy, counted: RateLimiterRes): void {
  const name = JSON.stringify(policy.name);
  appendListMember(response, 'RateLimit-Policy', `${name};q=${policy.quota};w=${policy.windowSeconds}`);
  appendListMember(response, 'RateLimit', `${name};r=${counted.remainingPoints};t=${secondsToReset(counted)}`);
}

/** A 429 with Retry-After; `explain` words the message around the seconds to wait. The caller has announced its policy. */
export function tooManyRequests(response: Response, counted: RateLimiterRes, explain: (retryAfterSeconds: number) => string): HttpException {
  const retryAfterSeconds = Math.max(1, secondsToReset(counted));
  response.setHeader('Retry-After', retryAfterSeconds);
  return new HttpException(explain(retryAfterSeconds), HttpStatus.TOO_MANY_REQUESTS);
}

function secondsToReset(counted: RateLimiterRes): number {
  return Math.max(0, Math.ceil(counted.msBeforeNext / 1000));
}

function appendListMember(response: Response, name: string, member: string): void {
  const present = response.getHeader(name);
  response.setHeader(name, present === undefined ? member : `${String(present)}, ${member}`);
}
