import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What @readme/openapi-parser's validate() found, as much of it as the service reports. */
export interface ValidationOutcome {
  valid: boolean;
  messages: string[];
  additionalErrors: number;
}

/** No `$ref` leaves the document: an external one would make the service fetch URLs or read files for a caller. */
const PARSER_OPTIONS = { resolve: { external: false, file: false } };

/** The validator's work may take this long; past it the worker is stopped and the document refused. */
export const VALIDATION_TIME_BUDGET_MS = 5_000;
const WORKER_MEMORY_MB = 256;

/*
 * Runs in a worker thread, so that a large document (500 KB take about a second to validate)
 * never holds the event loop: /health and every other request go on meanwhile. Source text,
 * not a file, so it runs the same from the build and from the TypeScript sources under test.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { validate } = require(workerData.parserPath);
parentPort.postMessage('ready');
parentPort.on('message', async (text) => {
  try {
    const result = await validate(JSON.parse(text), workerData.options);
    const messages = result.valid ? [] : result.errors.map(({ message }) => message);
    parentPort.postMessage({ valid: result.valid, messages, additionalErrors: result.valid ? 0 : result.additionalErrors });
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
  }
});`;

const parserPath = createRequire(import.meta.url).resolve('@readme/openapi-parser');

/**
 * One worker, started on first use and kept (unref'd: it never holds the process open), and its
 * queue: documents are validated one at a time, each within VALIDATION_TIME_BUDGET_MS of starting.
 */
class OpenApiValidator {
  private worker: { thread: Worker; ready: Promise<void> } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly limits = { maxOldGenerationSizeMb: WORKER_MEMORY_MB };

  /** The outcome, or a sentence saying why there is none (the time budget, a validator failure). */
  validate(text: string): Promise<ValidationOutcome | string> {
    const run = this.queue.then(() => this.inWorker(text));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The budget starts once the worker has loaded the validator: starting one is not the document's work. */
  private async inWorker(text: string): Promise<ValidationOutcome | string> {
    const { thread: worker, ready } = this.running();
    try {
      await ready;
    } catch (error) {
      this.worker = undefined;
      throw error;
    }
    return new Promise<ValidationOutcome | string>((resolve) => {
      const stop = (outcome: ValidationOutcome | string) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError);
        resolve(outcome);
      };
      const onMessage = (message: ValidationOutcome | { failed: string }) =>
        stop('failed' in message ? `could not be validated: ${message.failed}` : message);
      // The worker died (out of its memory limit): the document is what it was working on.
      const onError = (error: Error) => {
        this.worker = undefined;
        stop(`could not be validated: ${error.message}`);
      };
      const timer = setTimeout(() => {
        this.worker = undefined;
        void worker.terminate();
        stop(`took longer than ${VALIDATION_TIME_BUDGET_MS} ms to validate`);
      }, VALIDATION_TIME_BUDGET_MS);
      worker.on('message', onMessage).on('error', onError);
      worker.postMessage(text);
    });
  }

  private running(): { thread: Worker; ready: Promise<void> } {
    if (this.worker === undefined) {
      const thread = new Worker(WORKER_SOURCE, { eval: true, workerData: { parserPath, options: PARSER_OPTIONS }, resourceLimits: this.limits });
      thread.unref();
      const ready = new Promise<void>((resolve, reject) => thread.once('message', () => resolve()).once('error', reject));
      this.worker = { thread, ready };
    }
    return this.worker;
  }
}

export const openApiValidator = new OpenApiValidator();
