import { chmod, chown, lstat, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ClusterUser } from './cluster-user.js';

/** DATA_DIR, when it exists, must be the service user's: checked before anything in it is read or moved. */
export async function assertOwnDirectory(dataDir: string): Promise<void> {
  const uid = process.getuid?.();
  const owner = await stat(dataDir).then(
    (stats) => stats.uid,
    () => uid,
  );
  if (uid !== undefined && owner !== uid) throw new Error(`DATA_DIR ${dataDir} belongs to another user: it must be the service's own (or new)`);
}

/** Where, under DATA_DIR, each part lives. */
export function embeddedPaths(dataDir: string) {
  const cluster = join(dataDir, 'postgres');
  return {
    cluster,
    log: join(cluster, 'server.log'),
    password: join(dataDir, 'postgres.password'),
    owner: join(dataDir, 'service.pid'),
    binariesCopy: join(dataDir, 'postgres-bin'),
  };
}

/** What the service keeps in DATA_DIR, and of what kind each entry must be: never a link, never a FIFO. */
const OWN_DIRECTORIES = new Set(['postgres', 'postgres-bin', 'pglite', 'lost+found']);
const OWN_FILES = new Set(['postgres.password', 'postgres.password.new', 'service.pid']);
const OWN_PREFIXES = ['pglite-reading-'];

/**
 * Makes DATA_DIR the service's: created when missing, refused when it holds anything the service did
 * not put there (a DATA_DIR of `/srv` or of a home directory must not be taken over), and closed to
 * other users. As root, DATA_DIR stays root's, and the cluster's own user may only pass through it
 * (group, search) to the cluster directory it owns: it can create nothing beside the files root
 * writes there (the password, service.pid), so it cannot turn them into links to elsewhere.
 */
export async function prepareDataDirectory(dataDir: string, user: ClusterUser): Promise<void> {
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  await mkdir(dataDir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await assertOwnDirectory(dataDir);
  const uid = process.getuid?.();
  const foreign: string[] = [];
  for (const name of await readdir(dataDir)) {
    const entry = await lstat(join(dataDir, name));
    const expected =
      OWN_DIRECTORIES.has(name) || OWN_PREFIXES.some((prefix) => name.startsWith(prefix)) ? entry.isDirectory() : OWN_FILES.has(name) && entry.isFile();
    if (!expected) foreign.push(name);
  }
  if (foreign.length > 0) {
    throw new Error(
      `DATA_DIR ${dataDir} holds files that are not the embedded PostgreSQL's (${foreign.slice(0, 5).join(', ')}): ` +
        'give it an empty directory, or the one the service made',
    );
  }
  const { cluster } = embeddedPaths(dataDir);
  await mkdir(cluster, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  if (user.uid === undefined) {
    await chmod(dataDir, 0o700);
    return;
  }
  await chown(dataDir, uid!, user.gid!);
  await chmod(dataDir, 0o710);
  await chown(cluster, user.uid, user.gid!);
  await chmod(cluster, 0o700);
}

/**
 * One service per data directory: a second one would stop the first one's server. The owner is
 * named by its pid and, where /proc tells it, the pid's start time, so that a pid the system has
 * since given to another process (after a kill -9 and a reboot) does not lock the directory.
 */
export async function claimDataDirectory(ownerFile: string): Promise<void> {
  const [pid, startedAt] = (await readFile(ownerFile, 'utf8').catch(() => '')).trim().split(' ');
  const owner = Number(pid);
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && (await isAlive(owner, startedAt))) {
    throw new Error(`DATA_DIR is in use by another running service (process ${owner}): give each process its own DATA_DIR, or run replicas on DATABASE_URL`);
  }
  await writeFile(ownerFile, `${process.pid} ${(await startTimeOf(process.pid)) ?? ''}\n`, { mode: 0o600 });
}

async function isAlive(pid: number, recordedStart: string | undefined): Promise<boolean> {
  const startedAt = await startTimeOf(pid);
  if (startedAt !== undefined) return startedAt === recordedStart;
  try {
    process.kill(pid, 0);
    return process.platform !== 'linux';
  } catch {
    return false;
  }
}

/**
 * Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot; 'dead' for a
 * zombie not yet reaped; undefined off Linux or for no such process.
 */
async function startTimeOf(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields?.[0] === 'Z' ? 'dead' : fields?.[19];
}
