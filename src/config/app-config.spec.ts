import { resolve } from 'node:path';
import { AppConfig, ConfigError } from './app-config.js';

const HEX_KEY = '0123456789abcdef'.repeat(4);
const BASE64_KEY = Buffer.alloc(32, 7).toString('base64');

describe('AppConfig.fromEnvironment', () => {
  it('has working defaults for an empty environment', () => {
    expect({ ...AppConfig.fromEnvironment({}) }).toEqual({
      port: 3000,
      databaseUrl: undefined,
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
      metricsPort: undefined,
    });
  });

  it('reads every variable', () => {
    const config = AppConfig.fromEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app:secret@db:5432/app',
      DATA_DIR: '/var/lib/amc',
      LOG_LEVEL: 'DEBUG',
      LOG_FORMAT: 'Pretty',
      BOOTSTRAP_ORGANIZATION_KEY: `ok_${'a'.repeat(32)}`,
      BOOTSTRAP_PRIVATE_KEY: `sk_${'b'.repeat(32)}`,
      API_KEY_CACHE_SECONDS: '0',
      ENCRYPTION_KEY: HEX_KEY,
      ENCRYPTION_KEY_PREVIOUS: `${BASE64_KEY}, ${'A'.repeat(43)}`,
      RATE_LIMIT_REQUESTS: '0',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      METRICS_PORT: '9464',
    });
    expect({ ...config }).toEqual({
      port: 8080,
      databaseUrl: 'postgresql://app:secret@db:5432/app',
      dataDir: '/var/lib/amc',
      logLevel: 'debug',
      logFormat: 'pretty',
      bootstrapOrganizationKey: `ok_${'a'.repeat(32)}`,
      bootstrapPrivateKey: `sk_${'b'.repeat(32)}`,
      apiKeyCacheTtlMs: 0,
      encryptionKey: Buffer.from(HEX_KEY, 'hex'),
      previousEncryptionKeys: [Buffer.from(BASE64_KEY, 'base64'), Buffer.alloc(32)],
      rateLimitRequests: 0,
      rateLimitWindowMs: 60_000,
      metricsPort: 9464,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ PORT: '-1' }, /^PORT /],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL /],
    [{ DATABASE_URL: 'mysql://db/app' }, /^DATABASE_URL .*postgres/],
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
    [{ METRICS_PORT: '3000' }, /^METRICS_PORT must differ from PORT \(3000\)/],
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
