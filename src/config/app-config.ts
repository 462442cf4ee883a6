import { isIP } from 'node:net';
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
  /** Where each replica LISTENs for key revocations: a session of its own, past any transaction-pooling PgBouncer. */
  readonly databaseListenUrl: string | undefined;
  /** Connections each process keeps to its PostgreSQL, embedded or not. */
  readonly databasePoolSize: number;
  /** Statements on the pool are named, so that each connection plans them once (prepared-statements.ts). */
  readonly databasePreparedStatements: boolean;
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
  /** Failed authentications (401) one client address may cause per window before its unverifiable keys get 429; 0 turns it off. */
  readonly authFailureLimit: number;
  readonly authFailureWindowMs: number;
  /** Where rate-limit counters live, shared by every replica; undefined counts in each process. */
  readonly redisUrl: string | undefined;
  /** Prepended to every Redis key, so that several deployments can share one Redis. */
  readonly rateLimitRedisPrefix: string;
  /** Express's `trust proxy`: which hops of X-Forwarded-For to believe when telling the client's address. */
  readonly trustProxy: TrustProxy;
  /** A separate port serving only GET /metrics; undefined serves /metrics on `port`. */
  readonly metricsPort: number | undefined;
  /** The interface METRICS_PORT listens on. */
  readonly metricsHost: string;
  /** Swagger UI at /docs and the OpenAPI document at /docs-json and /docs-yaml; off, they answer 404. */
  readonly docsEnabled: boolean;
  /** How long a request body may take to arrive once the service starts reading it; then 408. */
  readonly requestBodyTimeoutMs: number;
  /** After SIGTERM, how long in-flight requests may take before their connections are closed. */
  readonly shutdownTimeoutMs: number;
  /** The tunings that lean on internals of pg, Express and pino (src/platform/); false runs on their public APIs alone. */
  readonly platformTuned: boolean;

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
    const mainDatabaseUrl = serverUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database');
    return new AppConfig({
      port: mainPort,
      databaseUrl: mainDatabaseUrl,
      databaseListenUrl: databaseListenUrl(env, mainDatabaseUrl),
      databasePoolSize: boundedInteger(env, 'DATABASE_POOL_SIZE', 10, 1, MAX_DATABASE_POOL_SIZE),
      databasePreparedStatements: flag(env, 'DATABASE_PREPARED_STATEMENTS', true),
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
      authFailureLimit: boundedInteger(env, 'AUTH_FAILURE_LIMIT', 30, 0, MAX_RATE_LIMIT_REQUESTS),
      authFailureWindowMs: boundedInteger(env, 'AUTH_FAILURE_WINDOW_SECONDS', 60, 1, MAX_RATE_LIMIT_WINDOW_SECONDS) * 1000,
      redisUrl: serverUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:'], 'redis://:password@host:6379/0'),
      rateLimitRedisPrefix: redisPrefix(env.RATE_LIMIT_REDIS_PREFIX),
      trustProxy: trustProxy(env.TRUST_PROXY),
      metricsPort: metricsPort(env.METRICS_PORT, mainPort),
      metricsHost: metricsHost(env.METRICS_HOST),
      docsEnabled: flag(env, 'DOCS_ENABLED', true),
      requestBodyTimeoutMs: boundedInteger(env, 'REQUEST_BODY_TIMEOUT_SECONDS', 20, 1, MAX_REQUEST_BODY_TIMEOUT_SECONDS) * 1000,
      shutdownTimeoutMs: boundedInteger(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 1, MAX_SHUTDOWN_TIMEOUT_SECONDS) * 1000,
      platformTuned: flag(env, 'PLATFORM_TUNED', true),
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

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

function metricsHost(raw: string | undefined): string {
  const value = present(raw) ?? '127.0.0.1';
  if (isIP(value) === 0 && !HOST_NAME.test(value)) {
    throw new ConfigError(`METRICS_HOST must be an IP address or a host name (0.0.0.0 for every interface), got "${value}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = present(env[name])?.toLowerCase();
  if (value === undefined) return fallback;
  if (value !== 'true' && value !== 'false') throw new ConfigError(`${name} must be true or false, got "${value}"`);
  return value === 'true';
}

/**
 * A URL of one of `schemes`, or undefined when unset. The messages never quote the value: it may
 * carry a password.
 */
function serverUrl(name: string, raw: string | undefined, schemes: string[], example: string): string | undefined {
  const value = present(raw);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL such as ${example}`);
  }
  if (!schemes.includes(url.protocol)) {
    throw new ConfigError(`${name} must use the ${schemes.map((scheme) => `${scheme}//`).join(' or ')} scheme, got "${url.protocol}"`);
  }
  return value;
}

/** The embedded database is this process's own, heard on its own socket: a listening URL without DATABASE_URL is a mistake. */
function databaseListenUrl(env: NodeJS.ProcessEnv, mainDatabaseUrl: string | undefined): string | undefined {
  const value = serverUrl('DATABASE_LISTEN_URL', env.DATABASE_LISTEN_URL, ['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/database');
  if (value !== undefined && mainDatabaseUrl === undefined) {
    throw new ConfigError('DATABASE_LISTEN_URL needs DATABASE_URL: the embedded PostgreSQL is heard on its own socket');
  }
  return value ?? mainDatabaseUrl;
}

const REDIS_PREFIX_SHAPE = /^[A-Za-z0-9:_.-]{1,64}$/;

function redisPrefix(raw: string | undefined): string {
  const value = present(raw) ?? 'amc:rl';
  if (!REDIS_PREFIX_SHAPE.test(value)) {
    throw new ConfigError(`RATE_LIMIT_REDIS_PREFIX must be 1 to 64 of A-Z, a-z, 0-9, ":", "_", "." and "-", got "${value}"`);
  }
  return value;
}

/** What Express's `trust proxy` takes: all or nothing, a number of hops, or the addresses and networks of the proxies. */
export type TrustProxy = boolean | number | string[];

const NAMED_NETWORKS = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_PROXY_HOPS = 100;

function trustProxy(raw: string | undefined): TrustProxy {
  const value = present(raw)?.toLowerCase();
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value) && Number(value) <= MAX_PROXY_HOPS) return Number(value);
  const proxies = value.split(',').map((part) => part.trim());
  const wrong = proxies.find((proxy) => !NAMED_NETWORKS.includes(proxy) && !isAddressOrNetwork(proxy));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be false, true, a number of hops from 0 to ${MAX_PROXY_HOPS}, or comma-separated addresses, ` +
        `CIDR networks and ${NAMED_NETWORKS.join('/')}; "${wrong.slice(0, 100)}" is none of these`,
    );
  }
  return proxies;
}

function isAddressOrNetwork(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
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
const MAX_DATABASE_POOL_SIZE = 1000;
const MAX_RATE_LIMIT_REQUESTS = 1_000_000;
const MAX_RATE_LIMIT_WINDOW_SECONDS = 3600;
const MAX_REQUEST_BODY_TIMEOUT_SECONDS = 300;
const MAX_SHUTDOWN_TIMEOUT_SECONDS = 300;

function boundedInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = present(env[name]);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/**
 * What a configured key's characters (after the prefix) must carry: random ones (a generated key's 43
 * base64url characters estimate at about 200 bits; 64 hex digits at about 240) pass by far, a value
 * padded with one character (`sk_` + 36 × `a`: 0 bits) or a readable phrase does not.
 */
export const KEY_STRENGTH = { minEntropyBits: 96, maxShareOfOneCharacter: 0.25 } as const;

function bootstrapKey(env: NodeJS.ProcessEnv, name: string, prefix: string): string | undefined {
  const value = present(env[name]);
  if (value === undefined) return undefined;
  const secret = value.slice(prefix.length);
  if (!value.startsWith(prefix) || !BOOTSTRAP_KEY_SHAPE.test(secret)) {
    throw new ConfigError(`${name} must be "${prefix}" followed by 32 to 128 characters from A-Z, a-z, 0-9, "_" and "-"`);
  }
  if (!strongEnough(secret)) {
    throw new ConfigError(
      `${name} is too predictable: the characters after "${prefix}" must carry at least ${KEY_STRENGTH.minEntropyBits} bits ` +
        `(their length times the Shannon entropy of their character frequencies) and no character may make up more than a quarter ` +
        `of them; use random ones, e.g. "${prefix}$(openssl rand -hex 32)"`,
    );
  }
  return value;
}

/** Length × the Shannon entropy of the character frequencies, and no character repeated past its share. */
function strongEnough(secret: string): boolean {
  const counts = new Map<string, number>();
  for (const character of secret) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bitsPerCharacter = 0;
  for (const count of counts.values()) {
    if (count > secret.length * KEY_STRENGTH.maxShareOfOneCharacter) return false;
    bitsPerCharacter -= (count / secret.length) * Math.log2(count / secret.length);
  }
  return bitsPerCharacter * secret.length >= KEY_STRENGTH.minEntropyBits;
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
