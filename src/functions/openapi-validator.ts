import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { TooBusyError } from '../errors/domain-errors.js';
import { OPENAPI_WORK_SOURCE } from './openapi-work.js';

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

/**
 * Documents queued or in the worker, in all and per workspace. A document of 500 KB takes about a
 * second: past these, a request is answered 429 at once rather than after minutes in the queue,
 * and one workspace's documents leave room for the others'.
 */
export const VALIDATOR_QUEUE_LIMITS = { total: 16, perWorkspace: 4 } as const;
/** What a document is taken to cost before any has been validated. */
const FIRST_GUESS_MS = 1_000;

/*
 * Runs in a worker thread, so that a large document (500 KB take about a second to validate, and
 * up to 190 ms to parse and measure) never holds the event loop: /health and every other request
 * go on meanwhile. Source text, not a file, so it runs the same from the build and from the
 * TypeScript sources under test.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { validate } = require(workerData.parserPath);
${OPENAPI_WORK_SOURCE}
parentPort.postMessage('ready');
parentPort.on('message', async (text) => {
  try {
    const parsed = openApiDocumentOf(text);
    if ('problem' in parsed) return parentPort.postMessage({ problem: parsed.problem });
    const result = await validate(parsed.document, workerData.options);
    const messages = result.valid ? [] : result.errors.map(({ message }) => message);
    parentPort.postMessage({ valid: result.valid, messages, additionalErrors: result.valid ? 0 : result.additionalErrors });
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message) });
  }
});`;

const parserPath = createRequire(import.meta.url).resolve('@readme/openapi-parser');

type WorkerAnswer = ValidationOutcome | { problem: string } | { failed: string };

/**
 * One worker, started on first use and kept (unref'd: it never holds the process open), and its
 * queue: documents are validated one at a time, each within VALIDATION_TIME_BUDGET_MS of starting,
 * and no more are queued than VALIDATOR_QUEUE_LIMITS.
 */
class OpenApiValidator {
  private worker: { thread: Worker; ready: Promise<void> } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly limits = { maxOldGenerationSizeMb: WORKER_MEMORY_MB };
  private queued = 0;
  private readonly queuedBy = new Map<string, number>();
  private averageMs = FIRST_GUESS_MS;

  /**
   * The outcome, or a sentence saying why there is none or what is wrong before validating (not
   * JSON, not OpenAPI 3.x, too much work, the time budget, a validator failure). TooBusyError when
   * the queue is full, in all or for `workspaceId`.
   */
  validate(text: string, workspaceId: string): Promise<ValidationOutcome | string> {
    const ofWorkspace = this.queuedBy.get(workspaceId) ?? 0;
    if (this.queued >= VALIDATOR_QUEUE_LIMITS.total || ofWorkspace >= VALIDATOR_QUEUE_LIMITS.perWorkspace) {
      const retryAfterSeconds = Math.max(1, Math.ceil((this.queued * this.averageMs) / 1000));
      throw new TooBusyError('Too many OpenAPI documents are waiting to be validated', retryAfterSeconds);
    }
    this.queued += 1;
    this.queuedBy.set(workspaceId, ofWorkspace + 1);
    const run = this.queue.then(() => this.timed(text)).finally(() => this.dequeue(workspaceId));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private dequeue(workspaceId: string): void {
    this.queued -= 1;
    const left = this.queuedBy.get(workspaceId)! - 1;
    if (left === 0) this.queuedBy.delete(workspaceId);
    else this.queuedBy.set(workspaceId, left);
  }

  /** Keeps a moving average of the time a document takes: Retry-After is the time the queue takes to drain at that pace. */
  private async timed(text: string): Promise<ValidationOutcome | string> {
    const started = performance.now();
    try {
      return await this.inWorker(text);
    } finally {
      this.averageMs = 0.8 * this.averageMs + 0.2 * (performance.now() - started);
    }
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
      const onMessage = (message: WorkerAnswer) =>
        stop('failed' in message ? `could not be validated: ${message.failed}` : 'problem' in message ? message.problem : message);
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
