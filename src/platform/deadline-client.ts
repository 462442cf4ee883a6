import pg from 'pg';

/** How often a connection compares how long its query has waited with the deadline. */
const DEADLINE_CHECK_MS = 250;

export interface DeadlineClientConfig extends pg.ClientConfig {
  /** How long a query may wait for its answer before the connection is given up; no deadline when absent. */
  queryDeadlineMs?: number;
}

/**
 * A pg client that gives up its connection when a query has waited `queryDeadlineMs` for its answer
 * (a frozen server, a network that drops packets silently). Destroying the socket fails every query
 * on it with "Query read timeout", makes the pool drop the client, and has the server roll back
 * whatever it had open. pg's own `query_timeout` fails the query alone and keeps the connection
 * waiting: the pool would hand the stuck connection on, and a ROLLBACK queued behind the query
 * would never be sent.
 *
 * The connection is checked every DEADLINE_CHECK_MS, and nothing is added to each query: pg's
 * `query_timeout` wraps each query's callback in a closure of its own, and with one there (pg's or
 * any other), each young-generation collection under load promoted about 2 MB of rows of answered
 * requests on GET /tasks?key, and took 4 ms rather than 1.3.
 */
export class DeadlineClient extends pg.Client {
  /** pg's own: whether the connection is idle, its last query answered (not in pg's type definitions). */
  declare readonly readyForQuery: boolean;
  /** When the query now in flight was sent, or the one before it answered: the last sign of life. */
  private lastProgress = 0;

  constructor(config?: string | DeadlineClientConfig) {
    super(config);
    const deadlineMs = typeof config === 'object' ? config.queryDeadlineMs : undefined;
    if (deadlineMs === undefined) return;
    this.noteProgress();
    const check = setInterval(() => {
      if (this.lastProgress > 0 && !this.readyForQuery && performance.now() - this.lastProgress >= deadlineMs) {
        clearInterval(check);
        this.connection.stream.destroy(new Error('Query read timeout'));
      }
    }, DEADLINE_CHECK_MS).unref();
    this.once('end', () => clearInterval(check));
  }

  /**
   * pg sends a connection's queries one after another: a query called on an idle connection is
   * sent at once, and each answer (ReadyForQuery) sends the next one queued.
   */
  private noteProgress(): void {
    this.connection.on('readyForQuery', () => {
      this.lastProgress = performance.now();
    });
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      if (this.readyForQuery) this.lastProgress = performance.now();
      return query(...args);
    }) as typeof this.query;
  }
}
