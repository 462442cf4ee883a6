import { randomBytes } from 'node:crypto';

/** The machine's Redis (see DESIGN.md), shared with whatever else runs there: every test run uses keys of its own. */
export const REDIS = { host: '127.0.0.1', port: 6379 };
export const REDIS_URL = `redis://${REDIS.host}:${REDIS.port}`;

/** A RATE_LIMIT_REDIS_PREFIX no other run uses. */
export function uniqueRedisPrefix(): string {
  return `amc-test:${randomBytes(6).toString('hex')}`;
}
