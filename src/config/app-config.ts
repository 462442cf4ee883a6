import { isAbsolute, resolve } from 'node:path';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export class ConfigError extends Error {}

const BOOTSTRAP_KEY_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * The service's whole configuration, read once from the environment at boot.
 * Nothing else reads process.env: a bad value stops start-up with a message naming the variable.
 */
export class AppConfig {
  readonly port: number;
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly logLevel: LogLevel;
  /** Undefined: readable lines when stdout is a terminal, JSON otherwise. */
  readonly logFormat: LogFormat | undefined;
  readonly bootstrapOrganizationKey: string | undefined;
  readonly bootstrapPrivateKey: string | undefined;
  /** How long a verified API key is trusted without asking the database again; 0 asks every time. */
  readonly apiKeyCacheTtlMs: number;
  /** Encrypts secrets written from now on (and reads them); undefined stores them as sent. */
  readonly encryptionKey: Buffer | undefined;
  /** Retired keys that still decrypt what was written under them. */
  readonly previousEncryptionKeys: Buffer[];
  /** Requests one API key may make per rate-limit window; 0 turns rate limiting off. */
  readonly rateLimitRequests: number;
  readonly rateLimitWindowMs: number;
  /** A separate port serving only GET /metrics; undefined serves /metrics on `port`. */
  readonly metricsPort: number | undefined;

  private constructor(values: AppConfig) {
    Object.assign(this, values);
  }

  static fromEnvironment(env: NodeJS.ProcessEnv): AppConfig {
    const organizationKey = bootstrapKey(env, 'BOOTSTRAP_ORGANIZATION_KEY', 'ok_');
    const privateKey = bootstrapKey(env, 'BOOTSTRAP_PRIVATE_KEY', 'sk_');
    if (organizationKey !== undefined && organizationKey === privateKey) {
      throw new ConfigError('BOOTSTRAP_ORGANIZATION_KEY and BOOTSTRAP_PRIVATE_KEY must differ');
    }
    const mainPort = port(env.PORT);
    return new AppConfig({
      port: mainPort,
      databaseUrl: databaseUrl(env.DATABASE_URL),
      dataDir: dataDir(env.DATA_DIR),
      logLevel: logLevel(env.LOG_LEVEL),
      logFormat: logFormat(env.LOG_FORMAT),
      bootstrapOrganizationKey: organizationKey,
      bootstrapPrivateKey: privateKey,
      apiKeyCacheTtlMs: boundedInteger(env, 'API_KEY_CACHE_SECONDS', 10, 0, MAX_API_KEY_CACHE_SECONDS) * 1000,
      encryptionKey: encryptionKeys(env, 'ENCRYPTION_KEY')[0],
      previousEncryptionKeys: encryptionKeys(env, 'ENCRYPTION_KEY_PREVIOUS'),
      rateLimitRequests: boundedInteger(env, 'RATE_LIMIT_REQUESTS', 3000, 0, MAX_RATE_LIMIT_REQUESTS),
      rateLimitWindowMs: boundedInteger(env, 'RATE_LIMIT_WINDOW_SECONDS', 10, 1, MAX_RATE_LIMIT_WINDOW_SECONDS) * 1000,
      metricsPort: metricsPort(env.METRICS_PORT, mainPort),
    });
  }
}

function present(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function port(raw: string | undefined): number {
  const value = present(raw);
  if (value === undefined) return 3000;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${value}"`);
  }
  return parsed;
}

function metricsPort(raw: string | undefined, mainPort: number): number | undefined {
  const value = present(raw);
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed > 65535) {
    throw new ConfigError(`METRICS_PORT must be an integer from 0 to 65535, got "${value}"`);
  }
  if (parsed !== 0 && parsed === mainPort) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${mainPort}); leave it unset to serve /metrics on PORT`);
  }
  return parsed;
}

function databaseUrl(raw: string | undefined): string | undefined {
  const value = present(raw);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL must be a URL such as postgres://user:password@host:5432/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must use the postgres:// or postgresql:// scheme, got "${url.protocol}"`);
  }
  return value;
}

function dataDir(raw: string | undefined): string {
  const value = present(raw) ?? './data';
  return isAbsolute(value) ? value : resolve(value);
}

function logLevel(raw: string | undefined): LogLevel {
  const value = present(raw)?.toLowerCase() ?? 'log';
  if (!(LOG_LEVELS as readonly string[]).includes(value)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  }
  return value as LogLevel;
}

function logFormat(raw: string | undefined): LogFormat | undefined {
  const value = present(raw)?.toLowerCase();
  if (value !== undefined && !(LOG_FORMATS as readonly string[]).includes(value)) {
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${value}"`);
  }
  return value as LogFormat | undefined;
}

const MAX_API_KEY_CACHE_SECONDS = 300;
const MAX_RATE_LIMIT_REQUESTS = 1_000_000;
const MAX_RATE_LIMIT_WINDOW_SECONDS = 3600;

function boundedInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = present(env[name]);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

function bootstrapKey(env: NodeJS.ProcessEnv, name: string, prefix: string): string | undefined {
  const value = present(env[name]);
  if (value === undefined) return undefined;
  if (!value.startsWith(prefix) || !BOOTSTRAP_KEY_SHAPE.test(value.slice(prefix.length))) {
    throw new ConfigError(
      `${name} must be "${prefix}" followed by 32 to 128 characters from A-Z, a-z, 0-9, "_" and "-"`,
    );
  }
  return value;
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * The 32-byte keys in a variable: one, or several separated by commas (only ENCRYPTION_KEY_PREVIOUS
 * takes several). The message never quotes the value: it is a secret.
 */
function encryptionKeys(env: NodeJS.ProcessEnv, name: 'ENCRYPTION_KEY' | 'ENCRYPTION_KEY_PREVIOUS'): Buffer[] {
  const value = present(env[name]);
  if (value === undefined) return [];
  const parts = value.split(',').map((part) => part.trim());
  if (name === 'ENCRYPTION_KEY' && parts.length > 1) throw new ConfigError('ENCRYPTION_KEY must be one key; put retired keys in ENCRYPTION_KEY_PREVIOUS');
  return parts.map((part) => {
    if (HEX_KEY.test(part)) return Buffer.from(part, 'hex');
    if (BASE64_KEY.test(part)) return Buffer.from(part.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
    throw new ConfigError(
      `${name} must hold ${name === 'ENCRYPTION_KEY' ? 'a 32-byte key' : '32-byte keys separated by commas'}, ` +
        'each written as 64 hex digits or 44 base64 characters (e.g. the output of "openssl rand -base64 32")',
    );
  });
}
