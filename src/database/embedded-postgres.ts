import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chmod, lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The longest Unix socket path Linux takes (sun_path is 108 bytes, NUL included); macOS takes 103. */
const MAX_SOCKET_PATH_BYTES = 103;

/** pg connects to `<host>/.s.PGSQL.<port>` when the host is a directory. */
const SOCKET_PORT = 5432;

/**
 * PostgreSQL compiled to WebAssembly (PGlite), served in-process so that the stock `pg` driver, and
 * so the same SQL, serves both the embedded default and a real server. The server has no
 * authentication of its own: it listens on a Unix socket in a fresh directory only this user can
 * enter (0700), never on a TCP port, and accepts only as many connections as the service opens.
 * Its files are this user's alone: 0600 in 0700 directories, those of an older data directory
 * included.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly database: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly socketDir: string,
  ) {}

  static async start(dataDir: string, maxConnections: number): Promise<EmbeddedPostgres> {
    // Files PGlite makes while it runs (new relations, WAL segments) are created 0666 less the umask.
    process.umask(0o077);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await restrictToOwner(dataDir);
    const database = await PGlite.create(dataDir);
    // The files of a new data directory are written 0666 whatever the umask.
    await restrictToOwner(dataDir);
    const socketDir = await mkdtemp(join(tmpdir(), 'amc-db-'));
    const path = join(socketDir, `.s.PGSQL.${SOCKET_PORT}`);
    if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
      throw new Error(`The embedded database's socket path ${path} is longer than a Unix socket allows: set TMPDIR to a shorter directory`);
    }
    const server = new PGLiteSocketServer({ db: database, path, maxConnections });
    await server.start();
    return new EmbeddedPostgres(database, server, socketDir);
  }

  get url(): string {
    return `postgres://postgres@/postgres?host=${encodeURIComponent(this.socketDir)}&port=${SOCKET_PORT}`;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.database.close();
    await rm(this.socketDir, { recursive: true, force: true });
  }
}

/** Directories 0700 and files 0600 throughout `dir`: an older data directory may have 0755 and 0666. */
async function restrictToOwner(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await restrictToOwner(path);
    else if (!(await lstat(path)).isSymbolicLink()) await chmod(path, 0o600);
  }
}
