import { freshDatabase, type FreshDatabase } from './fresh-database.js';
import { startTestApp, type TestApp } from './test-app.js';

/**
 * A test app on a fresh database of the kind under test, restarted with another environment as a
 * test needs: `setUp` in beforeEach, `tearDown` in afterEach.
 */
export class RestartableApp {
  private database: FreshDatabase | undefined;
  private app: TestApp | undefined;

  /** The environment that points a service (or a command) at this test's database. */
  get databaseEnv(): NodeJS.ProcessEnv {
    return this.database!.env;
  }

  async setUp(): Promise<void> {
    this.database = await freshDatabase();
  }

  /** (Re)starts the app on this test's database with `env`. */
  async start(env: NodeJS.ProcessEnv): Promise<TestApp> {
    await this.stop();
    this.app = await startTestApp({ ...this.databaseEnv, ...env });
    return this.app;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }

  async tearDown(): Promise<void> {
    await this.stop();
    await this.database?.drop();
  }
}
