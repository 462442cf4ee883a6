import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chown, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { type AddressInfo, createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { isRunning } from '../support/processes.js';
import { scratchDirectory } from '../support/scratch-directory.js';
import { eventually, send } from '../support/service-client.js';
import { ServiceProcess } from '../support/service-process.js';

const run = promisify(execFile);

/** The uid of `nobody`: another local user of the host. */
const OTHER_USER = 65534;
const LISTENING = { tcp: '0A', unix: '00010000' };

/** The inodes of the sockets process `pid` holds. */
async function socketInodes(pid: number): Promise<Set<string>> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return new Set(links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []));
}

/** The TCP ports and Unix socket paths process `pid` listens on. */
async function listenersOf(pid: number): Promise<{ tcpPorts: number[]; unixPaths: string[] }> {
  const inodes = await socketInodes(pid);
  const tcpPorts: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (await readFile(table, 'utf8')).trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === LISTENING.tcp && inodes.has(fields[9])) tcpPorts.push(parseInt(fields[1].split(':')[1], 16));
    }
  }
  const unixPaths = (await readFile('/proc/net/unix', 'utf8'))
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === LISTENING.unix && inodes.has(fields[6]) && fields[7] !== undefined)
    .map((fields) => fields[7]);
  return { tcpPorts, unixPaths };
}

/** Every file and directory under `dir` with its permission bits. */
async function modesUnder(dir: string): Promise<{ path: string; directory: boolean; mode: number }[]> {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push({ path, directory: entry.isDirectory(), mode: (await stat(path)).mode & 0o777 });
  }
  return found;
}

/** What another local user gets when it opens a connection to `path`. */
async function connectAsOtherUser(path: string): Promise<string> {
  const script = `require('net').connect(${JSON.stringify(path)}).on('connect', () => { console.log('connected'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(0); })`;
  const { stdout } = await run(process.execPath, ['-e', script], { uid: OTHER_USER, gid: OTHER_USER });
  return stdout.trim();
}

/** The postmaster of the embedded PostgreSQL whose cluster is in `dataDir`, from its postmaster.pid. */
async function postmasterOf(dataDir: string): Promise<{ pid: number; commandLine: string[] }> {
  const pid = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
  return { pid, commandLine };
}

/**
 * Always on the embedded default, whatever DATABASE_URL says: its server and files are the
 * service's own, and nothing else on the host may reach them.
 */
describe('The embedded database, from outside the service', () => {
  let scratch: string;
  const running: ServiceProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((service) => service.stop()));
    await rm(scratch, { recursive: true, force: true });
  });

  it('is a PostgreSQL server with its cluster under DATA_DIR, on no TCP port, on one Unix socket only its user can reach, behind a password', async () => {
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const service = await ServiceProcess.start({ DATA_DIR: dataDir });
    running.push(service);

    const postmaster = await postmasterOf(dataDir);
    expect(basename(postmaster.commandLine[0])).toBe('postgres');
    expect(postmaster.commandLine).toEqual(expect.arrayContaining(['-D', join(dataDir, 'postgres')]));
    expect((await listenersOf(service.pid)).tcpPorts).toEqual([service.port]);
    const { tcpPorts, unixPaths } = await listenersOf(postmaster.pid);
    expect(tcpPorts).toEqual([]);
    expect(unixPaths).toEqual([expect.stringMatching(/\/\.s\.PGSQL\.5432$/)]);
    const socketDir = dirname(unixPaths[0]);
    const clusterOwner = (await stat(join(dataDir, 'postgres'))).uid;
    expect(clusterOwner).toBe(process.getuid!() === 0 ? Number((await run('id', ['-u', 'amc-postgres'])).stdout) : process.getuid!());
    expect({ mode: (await stat(socketDir)).mode & 0o777, uid: (await stat(socketDir)).uid }).toEqual({ mode: 0o700, uid: clusterOwner });

    // The socket asks for the password kept in DATA_DIR; a client without it gets no session.
    const withoutPassword = new pg.Client({ host: socketDir, user: 'postgres', database: 'postgres', password: 'guess' });
    await expect(withoutPassword.connect()).rejects.toThrow(/password authentication failed/);
    const password = await readFile(join(dataDir, 'postgres.password'), 'utf8');
    const withPassword = new pg.Client({ host: socketDir, user: 'postgres', database: 'postgres', password });
    await withPassword.connect();
    const { rows } = await withPassword.query<{ server_version: string }>('SHOW server_version');
    await withPassword.end();
    expect(rows[0].server_version).toMatch(/^18\./);

    // The API port is not PostgreSQL: a pg client on it gets no session.
    const client = new pg.Client({ host: '127.0.0.1', port: service.port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 5000 });
    await expect(client.connect()).rejects.toThrow();
    await client.end().catch(() => undefined);

    if (process.getuid!() === 0) expect(await connectAsOtherUser(unixPaths[0])).toBe('EACCES');

    const loose = (await modesUnder(dataDir)).filter(({ directory, mode }) => mode !== (directory ? 0o700 : 0o600));
    expect(loose).toEqual([]);
    // As root, the cluster's user may pass through DATA_DIR (group, search) and nothing more.
    expect((await stat(dataDir)).mode & 0o777).toBe(process.getuid!() === 0 ? 0o710 : 0o700);
    expect((await modesUnder(dataDir)).length).toBeGreaterThan(100);

    expect(await service.stop()).toBe(0);
    running.splice(0);
    // Stopping the service stops its PostgreSQL and removes the socket's directory.
    expect(await isRunning(postmaster.pid)).toBe(false);
    await expect(stat(socketDir)).rejects.toThrow();
  }, 120_000);

  it('leaves the cluster user no way to write beside the files root writes in DATA_DIR', async () => {
    if (process.getuid!() !== 0) return;
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    running.push(await ServiceProcess.start({ DATA_DIR: dataDir }));
    const clusterUser = Number((await run('id', ['-u', 'amc-postgres'])).stdout);
    expect((await stat(dataDir)).uid).toBe(0);
    expect((await stat(join(dataDir, 'service.pid'))).uid).toBe(0);
    const attempt = spawnSync('ln', ['-s', '/etc/hostname', join(dataDir, 'planted')], { uid: clusterUser, gid: clusterUser, encoding: 'utf8' });
    expect(attempt.status).not.toBe(0);
    expect(attempt.stderr).toMatch(/Permission denied/);
  }, 120_000);

  it("refuses a DATA_DIR that holds files of someone else, and a PostgreSQL server's own data directory, changing neither", async () => {
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    await mkdir(dataDir, { mode: 0o755 });
    await writeFile(join(dataDir, 'notes.txt'), 'mine');
    const foreign = ServiceProcess.spawn({ DATA_DIR: dataDir });
    expect(await foreign.exitCode()).toBe(1);
    expect(foreign.output).toContain(`DATA_DIR ${dataDir} holds files that are not the embedded PostgreSQL's (notes.txt)`);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o755);
    expect(await readdir(dataDir)).toEqual(['notes.txt']);

    // Names the service uses, but a link where a file or directory of its own belongs.
    const linked = join(scratch, 'linked');
    await mkdir(linked, { mode: 0o700 });
    await symlink(join(scratch, 'elsewhere'), join(linked, 'service.pid'));
    await symlink(scratch, join(linked, 'postgres'));
    const refused = ServiceProcess.spawn({ DATA_DIR: linked });
    expect(await refused.exitCode()).toBe(1);
    expect(refused.output).toContain("holds files that are not the embedded PostgreSQL's (postgres, service.pid)");
    await expect(stat(join(scratch, 'elsewhere'))).rejects.toThrow();

    if (process.getuid!() === 0) {
      const othersDir = join(scratch, 'others');
      await mkdir(othersDir, { mode: 0o755 });
      await chown(othersDir, 65534, 65534);
      const notOurs = ServiceProcess.spawn({ DATA_DIR: othersDir });
      expect(await notOurs.exitCode()).toBe(1);
      expect(notOurs.output).toContain(`DATA_DIR ${othersDir} belongs to another user`);
    }

    // A server's data directory (postmaster.opts), and one never started or copied by pg_basebackup.
    for (const files of [
      ['PG_VERSION', 'postmaster.opts'],
      ['PG_VERSION', 'notes.txt'],
    ]) {
      const serverDir = join(scratch, files.join('-'));
      await mkdir(serverDir, { mode: 0o700 });
      await Promise.all(files.map((name) => writeFile(join(serverDir, name), '18\n')));
      const server = ServiceProcess.spawn({ DATA_DIR: serverDir });
      expect(await server.exitCode()).toBe(1);
      expect(server.output).toContain("holds a PostgreSQL data directory that is not the service's PGlite data");
      expect((await readdir(serverDir)).sort()).toEqual(files);
    }
  }, 120_000);

  it('starts over a service.pid whose process is gone, even when its pid now names another process', async () => {
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const first = await ServiceProcess.start({ DATA_DIR: dataDir });
    expect(await first.stop('SIGKILL')).toBeNull();
    // The pid of a live process (this one), started at another time than the one recorded.
    await writeFile(join(dataDir, 'service.pid'), `${process.pid} 1\n`);
    const next = await ServiceProcess.start({ DATA_DIR: dataDir });
    running.push(next);
    expect((await send(next.port, 'GET', '/health', undefined, null)).status).toBe(200);
  }, 120_000);

  it('stops its PostgreSQL when start-up fails after starting it', async () => {
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const taken = createServer().listen(0);
    await once(taken, 'listening');
    try {
      const failed = ServiceProcess.spawn({ DATA_DIR: dataDir, PORT: String((taken.address() as AddressInfo).port) });
      expect(await failed.exitCode()).toBe(1);
      const postmaster = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '0')).split('\n')[0]);
      expect(postmaster === 0 || !(await isRunning(postmaster))).toBe(true);
    } finally {
      taken.close();
    }
  }, 120_000);

  it('removes no directory a forged postmaster.pid names, and refuses a PGlite DATA_DIR of another user before moving anything', async () => {
    if (process.getuid!() !== 0) return;
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const first = await ServiceProcess.start({ DATA_DIR: dataDir });
    expect(await first.stop()).toBe(0);
    const victim = await mkdtemp(join(tmpdir(), 'amc-db-'));
    await writeFile(join(victim, 'kept'), 'x');
    await run('chown', ['-R', '65534:65534', victim]);
    try {
      // What the cluster's user could write: a postmaster.pid naming someone else's directory.
      await writeFile(join(dataDir, 'postgres', 'postmaster.pid'), `999999\n${join(dataDir, 'postgres')}\n1\n5432\n${victim}\n`);
      const next = await ServiceProcess.start({ DATA_DIR: dataDir });
      running.push(next);
      expect(await readFile(join(victim, 'kept'), 'utf8')).toBe('x');
    } finally {
      await rm(victim, { recursive: true, force: true });
    }

    const othersPglite = join(scratch, 'pglite-of-nobody');
    await mkdir(othersPglite);
    await writeFile(join(othersPglite, 'PG_VERSION'), '18\n');
    await run('chown', ['-R', '65534:65534', othersPglite]);
    const refused = ServiceProcess.spawn({ DATA_DIR: othersPglite });
    expect(await refused.exitCode()).toBe(1);
    expect(refused.output).toContain('belongs to another user');
    expect(await readdir(othersPglite)).toEqual(['PG_VERSION']);
  }, 120_000);

  it('names an empty password file instead of retrying a login that cannot succeed', async () => {
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const first = await ServiceProcess.start({ DATA_DIR: dataDir });
    expect(await first.stop()).toBe(0);
    const password = await readFile(join(dataDir, 'postgres.password'), 'utf8');
    await writeFile(join(dataDir, 'postgres.password'), '\n');
    const refused = ServiceProcess.spawn({ DATA_DIR: dataDir });
    expect(await refused.exitCode()).toBe(1);
    expect(refused.output).toContain(`password file ${join(dataDir, 'postgres.password')} is empty`);

    // A draft a crash left while the file was being written does not stand in the way.
    await writeFile(join(dataDir, 'postgres.password'), password);
    await writeFile(join(dataDir, 'postgres.password.new'), '');
    running.push(await ServiceProcess.start({ DATA_DIR: dataDir }));
  }, 120_000);

  it('stops its PostgreSQL when a stop signal comes during start-up', async () => {
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const starting = ServiceProcess.spawn({ DATA_DIR: dataDir });
    expect(await eventually(() => Promise.resolve(starting.output.includes('Using the embedded PostgreSQL')), 60_000)).toBe(true);
    await starting.stop('SIGTERM');
    const postmaster = Number((await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '0')).split('\n')[0]);
    expect(postmaster === 0 || !(await isRunning(postmaster))).toBe(true);
  }, 120_000);

  it('stops initdb and removes its password file when a stop signal comes while the cluster is being made', async () => {
    if (process.getuid!() !== 0) return;
    scratch = await scratchDirectory('amc-access-');
    const dataDir = join(scratch, 'data');
    const temporary = join(scratch, 'tmp');
    await mkdir(temporary, { mode: 0o755 });
    const initdbOf = async () => (await run('pgrep', ['-f', `initdb -D ${dataDir}/postgres`]).catch(() => ({ stdout: '' }))).stdout.trim();
    const starting = ServiceProcess.spawn({ DATA_DIR: dataDir, TMPDIR: temporary });
    expect(await eventually(async () => (await initdbOf()) !== '', 60_000)).toBe(true);
    await starting.stop('SIGTERM');
    expect(await eventually(async () => (await initdbOf()) === '', 5_000)).toBe(true);
    expect(await readdir(temporary)).toEqual([]);
  }, 120_000);
});
