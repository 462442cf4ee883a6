import { execFile, spawn } from 'node:child_process';
import { chmod, cp, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { PostgresBinaries } from './postgres-binaries.js';

const run = promisify(execFile);

/** The system account the embedded PostgreSQL runs as when the service runs as root. */
export const CLUSTER_USER_NAME = 'amc-postgres';

/**
 * How every process of the cluster's user is spawned: as that user, from `/`, and with an environment
 * of its own. The service's environment holds ENCRYPTION_KEY and the other secrets, and any process
 * of that user can read the environment of another.
 */
export function asClusterUser(user: ClusterUser) {
  return { ...user, cwd: '/', env: { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' } };
}

/** Who the cluster's processes run as: the service's own user, or a dedicated one for root. */
export interface ClusterUser {
  /** Unset: the service's own user. */
  uid?: number;
  gid?: number;
}

/**
 * PostgreSQL refuses to run as root. As root, the service runs it as a system account of its own,
 * made once (no home, no shell), so that the database's files and processes are no one else's.
 */
export async function clusterUser(): Promise<ClusterUser> {
  if (process.getuid?.() !== 0) return {};
  const existing = await idsOf(CLUSTER_USER_NAME);
  if (existing !== undefined) return existing;
  await run('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', CLUSTER_USER_NAME]).catch(
    async (error: unknown) => {
      // A replica starting at the same moment may have made it first.
      if ((await idsOf(CLUSTER_USER_NAME)) === undefined)
        throw new Error(`Could not create the system user ${CLUSTER_USER_NAME} for the embedded PostgreSQL: ${String(error)}`);
    },
  );
  const created = await idsOf(CLUSTER_USER_NAME);
  if (created === undefined) throw new Error(`The system user ${CLUSTER_USER_NAME} was created but cannot be found`);
  return created;
}

async function idsOf(name: string): Promise<ClusterUser | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * As root, PostgreSQL runs as its own user, which must reach the programs: when node_modules lies
 * under a directory only root may enter (a checkout in /root, a 0700 temporary directory), it runs
 * a copy of them that each start makes afresh in DATA_DIR (`copy`), root's and read-only to others.
 */
export async function binariesRunnableBy(user: ClusterUser, binaries: PostgresBinaries, copy: string): Promise<PostgresBinaries> {
  if (user.uid === undefined || (await runs(user, binaries.postgres))) return binaries;
  const native = dirname(dirname(binaries.postgres));
  await rm(copy, { recursive: true, force: true });
  await cp(native, copy, { recursive: true, verbatimSymlinks: true });
  await chmod(copy, 0o755);
  const inCopy = (program: string) => join(copy, relative(native, program));
  return { postgres: inCopy(binaries.postgres), initdb: inCopy(binaries.initdb), pg_ctl: inCopy(binaries.pg_ctl) };
}

function runs(user: ClusterUser, program: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(program, ['--version'], { ...asClusterUser(user), stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

/** The data directory's parents must let the cluster's user through to its cluster: say so, rather than fail inside initdb. */
export async function mustReach(user: ClusterUser, dataDir: string, cluster: string): Promise<void> {
  const reachable = await new Promise<boolean>((resolve) => {
    const child = spawn('test', ['-x', dataDir, '-a', '-w', cluster], { ...asClusterUser(user), stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
  if (!reachable) {
    throw new Error(
      `DATA_DIR ${dataDir} cannot be reached by the system user ${CLUSTER_USER_NAME}, which runs the embedded PostgreSQL when the service runs as root: ` +
        'choose a DATA_DIR whose parent directories others may enter (chmod o+x), run the service as another user, or set DATABASE_URL',
    );
  }
}
