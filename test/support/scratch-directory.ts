import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A new temporary directory for a DATA_DIR: as root, the embedded PostgreSQL runs as a user of its
 * own, which must be able to pass through this directory (0711: enter, not list).
 */
export async function scratchDirectory(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o711);
  return dir;
}
