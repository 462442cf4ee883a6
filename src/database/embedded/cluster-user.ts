import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The system account the embedded PostgreSQL runs as when the service runs as root. */
export const CLUSTER_USER_NAME = 'amc-postgres';

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
