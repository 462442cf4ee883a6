import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

const ENTRY = resolve('dist/main.js');
/** As in the image's CMD and `npm start`. */
const NODE_FLAGS = ['--heap-growing-percent=150', '--max-semi-space-size=32'];
const START_TIMEOUT_MS = 60_000;

/** The built service run as its container runs it: `node --heap-growing-percent=150 --max-semi-space-size=32 dist/main.js` with a given environment. */
export class ServiceProcess {
  output = '';
  private exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = once(child, 'exit').then(([code]) => code as number | null);
  }

  /** Spawns the service on a free port; resolves once it listens. `PATH` and the run's `PLATFORM_TUNED` are kept, nothing else leaks in. */
  static async start(env: NodeJS.ProcessEnv): Promise<ServiceProcess & { port: number }> {
    const service = ServiceProcess.spawn(env);
    const port = await service.listeningPort();
    return Object.assign(service, { port });
  }

  static spawn(env: NodeJS.ProcessEnv): ServiceProcess {
    return new ServiceProcess(spawn(process.execPath, [...NODE_FLAGS, ENTRY], { env: { ...runEnvironment(), PORT: '0', ...env } }));
  }

  get pid(): number {
    return this.child.pid!;
  }

  exitCode(): Promise<number | null> {
    return this.exited;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }

  private async listeningPort(): Promise<number> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const port = /Listening on port (\d+)/.exec(this.output)?.[1];
      if (port !== undefined) return Number(port);
      if (this.child.exitCode !== null) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    await this.stop('SIGKILL');
    throw new Error(`The service did not start:\n${this.output}`);
  }
}

/** What every spawned service inherits from the test run: the tools on PATH, and the platform the run tests. */
function runEnvironment(): NodeJS.ProcessEnv {
  const { PATH, PLATFORM_TUNED } = process.env;
  return PLATFORM_TUNED === undefined ? { PATH } : { PATH, PLATFORM_TUNED };
}
