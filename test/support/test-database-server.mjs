import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * With no DATABASE_URL, the run is on the embedded PostgreSQL: one server for the whole run, made by
 * the service's own EmbeddedPostgres from the same binaries, on a free port of 127.0.0.1 as well as
 * its socket, so that the suites that put a TCP proxy in front of the database run on it too. The
 * suites about the embedded default itself start services on DATA_DIRs of their own.
 */
export async function startTestDatabaseServer() {
  if (process.env.DATABASE_URL !== undefined) return undefined;
  const { EmbeddedPostgres } = await import('../../dist/database/embedded/embedded-postgres.js');
  const scratch = await mkdtemp(join(tmpdir(), 'amc-test-server-'));
  // As root, the server runs as its own user, which must be able to enter this directory.
  await chmod(scratch, 0o711);
  const server = await EmbeddedPostgres.start(join(scratch, 'data'), await freePort());
  process.env.DATABASE_URL = server.url;
  return async () => {
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}
