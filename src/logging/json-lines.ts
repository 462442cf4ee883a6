import { type DestinationStream, pino } from 'pino';

/** Under load, JSON lines reach stdout in blocks of at least this many bytes… */
const BLOCK_BYTES = 8192;

/** …and in a quieter process within two of these periods after they were logged. */
const FLUSH_PERIOD_MS = 100;

/**
 * stdout for JSON lines, written asynchronously in blocks. Each write is a system call on a libuv
 * worker thread, and written a few lines at a time (pino's default) they took about 7% of a busy
 * service's CPU. What is still buffered is written when the process exits, also after an uncaught
 * exception (pino's exit hook); a process killed outright (SIGKILL, out of memory) loses at most
 * the lines of its last 2 × FLUSH_PERIOD_MS.
 */
export function jsonLinesInBlocks(): { destination: DestinationStream; noteWritten: (line: string) => string } {
  const destination = pino.destination({ dest: 1, sync: false, minLength: BLOCK_BYTES });
  // Flushed on two ticks after the last line: a flush that finds a write under way leaves the rest to the next.
  let ticksToFlush = 0;
  setInterval(() => {
    if (ticksToFlush === 0) return;
    ticksToFlush--;
    destination.flush();
  }, FLUSH_PERIOD_MS).unref();
  return {
    destination,
    noteWritten: (line) => {
      ticksToFlush = 2;
      return line;
    },
  };
}
