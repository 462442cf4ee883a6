import { type DestinationStream, pino } from 'pino';

/** Under load, JSON lines reach stdout in blocks of at least this many characters… */
const BLOCK_CHARACTERS = 8192;

/** …and in a quieter process within two of these periods after they were logged. */
const FLUSH_PERIOD_MS = 100;

/** Every destination still to be written out when the process exits: one exit listener for all of them. */
const unwritten = new Set<JsonLinesInBlocks>();
process.once('exit', () => {
  for (const destination of unwritten) destination.flushSync();
});

/**
 * stdout for JSON lines, written asynchronously in blocks. Each write is a system call on a libuv
 * worker thread, and written a few lines at a time (pino's default) they took about 7% of a busy
 * service's CPU. The lines are gathered here and handed to sonic-boom (pino's writer) a block at a
 * time: gathering them itself, sonic-boom measured the bytes of its whole growing buffer on every
 * line. What is still buffered is written when the process exits, also after an uncaught
 * exception; a process killed outright (SIGKILL, out of memory) loses at most the lines of its
 * last 2 × FLUSH_PERIOD_MS. `flush(done)` calls back once the lines are on their way, not written.
 */
export class JsonLinesInBlocks implements DestinationStream {
  private readonly output = pino.destination({ dest: 1, sync: false });
  private lines: string[] = [];
  private characters = 0;
  /** Flushed on two ticks after the last line: a flush that finds a write under way leaves the rest to the next. */
  private ticksToFlush = 0;

  constructor() {
    setInterval(() => this.tick(), FLUSH_PERIOD_MS).unref();
    unwritten.add(this);
  }

  write(line: string): void {
    this.lines.push(line);
    this.characters += line.length;
    this.ticksToFlush = 2;
    if (this.characters >= BLOCK_CHARACTERS) this.handOver();
  }

  flush(done?: (error?: Error) => void): void {
    this.handOver();
    this.output.flush(done);
  }

  /**
   * At exit: what sonic-boom holds, then the lines gathered here, both written before this returns.
   * Handed over as usual, the lines would start an asynchronous write that the process may not
   * live to finish. sonic-boom's stream is skipped once pino's own exit hook has ended it (at
   * beforeExit, an exit with nothing left to do), as that hook does: flushing it would throw.
   */
  flushSync(): void {
    if (!(this.output as unknown as { destroyed: boolean }).destroyed) this.output.flushSync();
    if (this.lines.length === 0) return;
    const atOnce = pino.destination({ dest: 1, sync: true });
    // Stdout that is gone has no use for the lines.
    atOnce.on('error', () => {});
    atOnce.write(this.take());
  }

  private tick(): void {
    if (this.ticksToFlush === 0) return;
    this.ticksToFlush--;
    this.flush();
  }

  private handOver(): void {
    if (this.lines.length > 0) this.output.write(this.take());
  }

  private take(): string {
    const block = this.lines.join('');
    this.lines = [];
    this.characters = 0;
    return block;
  }
}
