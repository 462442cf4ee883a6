import pg from 'pg';

/**
 * A pg client that gives up its connection when a query outlives pg's `query_timeout`. pg alone
 * only fails that query and keeps the connection waiting for the answer: the pool would hand the
 * stuck connection on, and a ROLLBACK queued behind the query would never be sent. Destroying
 * the socket makes the pool drop the client and the server roll back whatever it had open.
 */
export class DeadlineClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const result = query(...args);
      return result instanceof Promise ? result.catch((error: unknown) => this.giveUpOn(error)) : result;
    }) as typeof this.query;
  }

  private giveUpOn(error: unknown): never {
    if (error instanceof Error && error.message === 'Query read timeout') this.connection.stream.destroy();
    throw error;
  }
}
