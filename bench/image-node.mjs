// The Node.js that production runs: the exact version of docker/Dockerfile's `FROM node:<version>-…`
// tags, as .ci/run reads it. The bench runs the service and the floor on it; when the machine's own
// Node.js is another version, the image's is installed once from the npm registry's `node` package.
import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const INSTALLS = 'node_modules/.cache/image-node';
const run = promisify(execFile);

export async function imageNodeVersion() {
  const dockerfile = await readFile('docker/Dockerfile', 'utf8');
  const versions = new Set([...dockerfile.matchAll(/^FROM node:(\d+\.\d+\.\d+)-\S+/gm)].map((match) => match[1]));
  if (versions.size !== 1) throw new Error(`docker/Dockerfile's FROM lines name ${versions.size} Node.js versions; the bench needs exactly one`);
  return [...versions][0];
}

/** The path of a `node` binary of the image's version: the running one when it is, else an installed copy. */
export async function imageNodeBinary() {
  const version = await imageNodeVersion();
  if (process.version === `v${version}`) return process.execPath;
  const prefix = join(INSTALLS, version);
  const binary = join(prefix, 'node_modules', '.bin', 'node');
  const installed = await access(binary).then(
    () => true,
    () => false,
  );
  if (!installed) {
    console.log(`installing Node.js ${version} (the image's) into ${prefix} for the bench; this machine runs ${process.version}`);
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node@${version}`]);
  }
  const { stdout } = await run(binary, ['--version']);
  if (stdout.trim() !== `v${version}`) throw new Error(`${binary} is Node.js ${stdout.trim()}, not v${version}: remove ${prefix} and run the bench again`);
  return binary;
}
