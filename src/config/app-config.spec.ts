import { resolve } from 'node:path';
import { AppConfig, ConfigError } from './app-config.js';

describe('AppConfig.fromEnvironment', () => {
  it('has working defaults for an empty environment', () => {
    expect({ ...AppConfig.fromEnvironment({}) }).toEqual({
      port: 3000,
      databaseUrl: undefined,
      dataDir: resolve('./data'),
      logLevel: 'log',
      bootstrapOrganizationKey: undefined,
      bootstrapPrivateKey: undefined,
      apiKeyCacheTtlMs: 10_000,
      metricsPort: undefined,
    });
  });

  it('reads every variable', () => {
    const config = AppConfig.fromEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgresql://app:secret@db:5432/app',
      DATA_DIR: '/var/lib/amc',
      LOG_LEVEL: 'DEBUG',
      BOOTSTRAP_ORGANIZATION_KEY: `ok_${'a'.repeat(32)}`,
      BOOTSTRAP_PRIVATE_KEY: `sk_${'b'.repeat(32)}`,
      API_KEY_CACHE_SECONDS: '0',
      METRICS_PORT: '9464',
    });
    expect({ ...config }).toEqual({
      port: 8080,
      databaseUrl: 'postgresql://app:secret@db:5432/app',
      dataDir: '/var/lib/amc',
      logLevel: 'debug',
      bootstrapOrganizationKey: `ok_${'a'.repeat(32)}`,
      bootstrapPrivateKey: `sk_${'b'.repeat(32)}`,
      apiKeyCacheTtlMs: 0,
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
    [{ BOOTSTRAP_ORGANIZATION_KEY: `sk_${'a'.repeat(32)}` }, /^BOOTSTRAP_ORGANIZATION_KEY must be "ok_"/],
    [{ BOOTSTRAP_PRIVATE_KEY: 'sk_short' }, /^BOOTSTRAP_PRIVATE_KEY must be "sk_"/],
    [{ BOOTSTRAP_PRIVATE_KEY: `sk_${'a'.repeat(31)}!` }, /^BOOTSTRAP_PRIVATE_KEY /],
    [{ API_KEY_CACHE_SECONDS: '301' }, /^API_KEY_CACHE_SECONDS must be an integer from 0 to 300/],
    [{ API_KEY_CACHE_SECONDS: '1.5' }, /^API_KEY_CACHE_SECONDS /],
    [{ METRICS_PORT: 'nine' }, /^METRICS_PORT must be an integer from 0 to 65535/],
    [{ METRICS_PORT: '3000' }, /^METRICS_PORT must differ from PORT \(3000\)/],
  ])('stops on %j with a message naming the variable', (env, message) => {
    expect(() => AppConfig.fromEnvironment(env)).toThrow(ConfigError);
    expect(() => AppConfig.fromEnvironment(env)).toThrow(message);
  });

  it('treats an empty variable as unset', () => {
    expect(AppConfig.fromEnvironment({ PORT: '', DATABASE_URL: ' ' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });
});
