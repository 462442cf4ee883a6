// Registered in jest.config.mjs (setupFiles): when jest runs suites in several workers, each worker
// gets a database of its own, made by global-setup.mjs, so that one suite's truncation never meets
// another's rows. One worker keeps DATABASE_URL as it is.
import { workerDatabaseUrl } from './worker-databases.mjs';

const url = workerDatabaseUrl(process.env.JEST_WORKER_ID);
if (url !== undefined) process.env.DATABASE_URL = url;
