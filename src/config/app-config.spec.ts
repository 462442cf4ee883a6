import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { AppConfig, ConfigError } from './app-config.js';

const HEX_KEY = '0123456789abcdef'.repeat(4);
const BASE64_KEY = Buffer.alloc(32, 7).toString('base64');
const ORGANIZATION_KEY = 'ok_fL3q9Xv-T2mZr8KwYb5NcJ0hGd7sPaE4uQiV6oRt1yW';
const PRIVATE_KEY = 'sk_Z9pQ2wE7rT4yU1iO6aS3dF8gH5jK0lX-cV_bN2mQ7wE';

describe('AppConfig.fromEnvironment', () => {
  it('has working defaults for an empty environment', () => {
    expect({ ...AppConfig.fromEnvironment({}) }).toEqual({
      port: 3000,
      databaseUrl: undefined,
      databaseListenUrl: undefined,
      databasePoolSize: 10,
      databasePreparedStatements: true,
      dataDir: resolve('./data'),
      logLevel: 'log',
      logFormat: undefined,
      bootstrapOrganizationKey: undefined,
      bootstrapPrivateKey: undefined,
      apiKeyCacheTtlMs: 10_000,
      encryptionKey: undefined,
      previousEncryptionKeys: [],
      rateLimitRequests: 3000,
      rateLimitWindowMs: 10_000,
      authFailureLimit: 30,
      authFailureWindowMs: 60_000,
      redisUrl: undefined,
      rateLimitRedisPrefix: 'amc:rl',
      trustProxy: false,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
      docsEnabled: true,
      requestBodyTimeoutMs: 20_000,
      shutdownTimeoutMs: 20_000,
      platformTuned: true,
    });
  });

  it('reads every variable', () => {
    const config = AppConfig.fromEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app:secret@db:5432/app',
      DATABASE_LISTEN_URL: 'postgresql://app:secret@db-direct:5432/app',
      DATA_DIR: '/var/lib/amc',
      LOG_LEVEL: 'DEBUG',
      LOG_FORMAT: 'Pretty',
      BOOTSTRAP_ORGANIZATION_KEY: ORGANIZATION_KEY,
      BOOTSTRAP_PRIVATE_KEY: PRIVATE_KEY,
      API_KEY_CACHE_SECONDS: '0',
      ENCRYPTION_KEY: HEX_KEY,
      ENCRYPTION_KEY_PREVIOUS: `${BASE64_KEY}, ${'A'.repeat(43)}`,
      RATE_LIMIT_REQUESTS: '0',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      METRICS_PORT: '9464',
      DATABASE_POOL_SIZE: '4',
      DATABASE_PREPARED_STATEMENTS: 'false',
      AUTH_FAILURE_LIMIT: '0',
      AUTH_FAILURE_WINDOW_SECONDS: '600',
      REDIS_URL: 'rediss://:secret@cache:6380/2',
      RATE_LIMIT_REDIS_PREFIX: 'amc:staging',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.7 ,fd00::/8,loopback',
      METRICS_HOST: '0.0.0.0',
      DOCS_ENABLED: 'FALSE',
      REQUEST_BODY_TIMEOUT_SECONDS: '5',
      SHUTDOWN_TIMEOUT_SECONDS: '25',
      PLATFORM_TUNED: 'false',
    });
    expect({ ...config }).toEqual({
      port: 8080,
      databaseUrl: 'postgresql://app:secret@db:5432/app',
      databaseListenUrl: 'postgresql://app:secret@db-direct:5432/app',
      dataDir: '/var/lib/amc',
      logLevel: 'debug',
      logFormat: 'pretty',
      bootstrapOrganizationKey: ORGANIZATION_KEY,
      bootstrapPrivateKey: PRIVATE_KEY,
      apiKeyCacheTtlMs: 0,
      encryptionKey: Buffer.from(HEX_KEY, 'hex'),
      previousEncryptionKeys: [Buffer.from(BASE64_KEY, 'base64'), Buffer.alloc(32)],
      rateLimitRequests: 0,
      rateLimitWindowMs: 60_000,
      metricsPort: 9464,
      databasePoolSize: 4,
      databasePreparedStatements: false,
      authFailureLimit: 0,
      authFailureWindowMs: 600_000,
      redisUrl: 'rediss://:secret@cache:6380/2',
      rateLimitRedisPrefix: 'amc:staging',
      trustProxy: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback'],
      metricsHost: '0.0.0.0',
      docsEnabled: false,
      requestBodyTimeoutMs: 5_000,
      shutdownTimeoutMs: 25_000,
      platformTuned: false,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ PORT: '-1' }, /^PORT /],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL /],
    [{ DATABASE_URL: 'mysql://db/app' }, /^DATABASE_URL .*postgres/],
    [{ DATABASE_URL: 'postgres://db/app', DATABASE_LISTEN_URL: 'redis://db' }, /^DATABASE_LISTEN_URL .*postgres/],
    [{ DATABASE_LISTEN_URL: 'postgres://db/app' }, /^DATABASE_LISTEN_URL needs DATABASE_URL/],
    [{ LOG_LEVEL: 'chatty' }, /^LOG_LEVEL must be one of fatal, error, warn, log, debug, verbose/],
    [{ LOG_FORMAT: 'text' }, /^LOG_FORMAT must be one of pretty, json, got "text"/],
    [{ BOOTSTRAP_ORGANIZATION_KEY: `sk_${'a'.repeat(32)}` }, /^BOOTSTRAP_ORGANIZATION_KEY must be "ok_"/],
    [{ BOOTSTRAP_PRIVATE_KEY: 'sk_short' }, /^BOOTSTRAP_PRIVATE_KEY must be "sk_"/],
    [{ BOOTSTRAP_PRIVATE_KEY: `sk_${'a'.repeat(31)}!` }, /^BOOTSTRAP_PRIVATE_KEY /],
    [{ API_KEY_CACHE_SECONDS: '301' }, /^API_KEY_CACHE_SECONDS must be an integer from 0 to 300/],
    [{ API_KEY_CACHE_SECONDS: '1.5' }, /^API_KEY_CACHE_SECONDS /],
    [{ ENCRYPTION_KEY: 'a'.repeat(63) }, /^ENCRYPTION_KEY must hold a 32-byte key/],
    [{ ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }, /^ENCRYPTION_KEY must hold a 32-byte key/],
    [{ ENCRYPTION_KEY: `${HEX_KEY},${HEX_KEY}` }, /^ENCRYPTION_KEY must be one key/],
    [{ ENCRYPTION_KEY_PREVIOUS: `${HEX_KEY},nope` }, /^ENCRYPTION_KEY_PREVIOUS must hold 32-byte keys/],
    [{ RATE_LIMIT_REQUESTS: '-1' }, /^RATE_LIMIT_REQUESTS must be an integer from 0 to 1000000/],
    [{ RATE_LIMIT_REQUESTS: 'many' }, /^RATE_LIMIT_REQUESTS /],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 3600/],
    [{ METRICS_PORT: 'nine' }, /^METRICS_PORT must be an integer from 0 to 65535/],
    [{ DATABASE_POOL_SIZE: '0' }, /^DATABASE_POOL_SIZE must be an integer from 1 to 1000/],
    [{ DATABASE_PREPARED_STATEMENTS: 'on' }, /^DATABASE_PREPARED_STATEMENTS must be true or false/],
    [{ AUTH_FAILURE_LIMIT: '-3' }, /^AUTH_FAILURE_LIMIT must be an integer from 0 to 1000000/],
    [{ AUTH_FAILURE_WINDOW_SECONDS: '3601' }, /^AUTH_FAILURE_WINDOW_SECONDS must be an integer from 1 to 3600/],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must use the redis:\/\/ or rediss:\/\/ scheme/],
    [{ REDIS_URL: 'not a url' }, /^REDIS_URL must be a URL/],
    [{ RATE_LIMIT_REDIS_PREFIX: 'has space' }, /^RATE_LIMIT_REDIS_PREFIX must be 1 to 64 of/],
    [{ RATE_LIMIT_REDIS_PREFIX: 'x'.repeat(65) }, /^RATE_LIMIT_REDIS_PREFIX /],
    [{ TRUST_PROXY: 'yes' }, /^TRUST_PROXY must be false, true, a number of hops .*"yes" is none of these/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY .*"10.0.0.0\/33"/],
    [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '::1/129' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '101' }, /^TRUST_PROXY /],
    [{ METRICS_PORT: '3000' }, /^METRICS_PORT must differ from PORT \(3000\)/],
    [{ METRICS_HOST: 'every interface' }, /^METRICS_HOST must be an IP address or a host name/],
    [{ METRICS_HOST: '-host' }, /^METRICS_HOST /],
    [{ DOCS_ENABLED: 'yes' }, /^DOCS_ENABLED must be true or false/],
    [{ REQUEST_BODY_TIMEOUT_SECONDS: '0' }, /^REQUEST_BODY_TIMEOUT_SECONDS must be an integer from 1 to 300/],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '301' }, /^SHUTDOWN_TIMEOUT_SECONDS must be an integer from 1 to 300/],
  ])('stops on %j with a message naming the variable', (env, message) => {
    expect(() => AppConfig.fromEnvironment(env)).toThrow(ConfigError);
    expect(() => AppConfig.fromEnvironment(env)).toThrow(message);
  });

  it('never quotes a bad encryption key in its message', () => {
    const secret = 'not-a-key-but-still-a-secret';
    const error = captureError(() => AppConfig.fromEnvironment({ ENCRYPTION_KEY: secret }));
    expect(error.message).toMatch(/^ENCRYPTION_KEY /);
    expect(error.message).not.toContain(secret);
  });

  it('listens for key revocations on DATABASE_URL unless DATABASE_LISTEN_URL names another', () => {
    expect(AppConfig.fromEnvironment({ DATABASE_URL: 'postgres://pgbouncer:6432/app' }).databaseListenUrl).toBe('postgres://pgbouncer:6432/app');
  });

  it.each([
    ['false', false],
    ['TRUE', true],
    ['0', 0],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['uniquelocal,::1', ['uniquelocal', '::1']],
  ])('reads TRUST_PROXY=%s as Express takes it', (value, expected) => {
    expect(AppConfig.fromEnvironment({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('never quotes a bad REDIS_URL, which may hold a password', () => {
    const error = captureError(() => AppConfig.fromEnvironment({ REDIS_URL: 'http://user:hunter2@cache' }));
    expect(error.message).toMatch(/^REDIS_URL /);
    expect(error.message).not.toContain('hunter2');
  });

  it.each([
    ['one character repeated', `sk_${'a'.repeat(36)}`],
    ['a readable prefix padded with one character', 'sk_test0private0key0aaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['a short pattern repeated', `sk_${'abcd'.repeat(9)}`],
    ['two characters alternating', `sk_${'ab'.repeat(18)}`],
  ])('refuses a configured key with little entropy (%s), without quoting it', (_, weak) => {
    for (const variable of ['BOOTSTRAP_PRIVATE_KEY', 'BOOTSTRAP_ORGANIZATION_KEY']) {
      const value = variable === 'BOOTSTRAP_PRIVATE_KEY' ? weak : `ok_${weak.slice(3)}`;
      const error = captureError(() => AppConfig.fromEnvironment({ [variable]: value }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(new RegExp(`^${variable} is too predictable: .* at least 96 bits`));
      expect(error.message).not.toContain(value.slice(3));
    }
  });

  it.each([
    ['a generated key', 'sk_' + 'x7Qp2Lw9Zr4Tb8Nc1Vd6Kf3Hj0Gm5Ys-Ua_Ie'],
    ['64 hex digits', `sk_${'3f9a1c7e5b2d8064'.split('').reverse().join('')}${'c41e9b07d2a65f38'}${'8e2f4a6c0b1d3957'}${'a0c2e4f61b3d5978'}`],
  ])('accepts a configured key of random characters: %s', (_, strong) => {
    expect(AppConfig.fromEnvironment({ BOOTSTRAP_PRIVATE_KEY: strong }).bootstrapPrivateKey).toBe(strong);
  });

  it('treats an empty variable as unset', () => {
    expect(AppConfig.fromEnvironment({ PORT: '', DATABASE_URL: ' ' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });
});

function captureError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}
