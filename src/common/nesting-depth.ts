/** Deeper than any body of the API needs (a function's handler.requestHandler is three levels), far short of any recursive reader's stack. */
export const MAX_NESTING_DEPTH = 32;

/**
 * Whether a parsed JSON value holds arrays or objects nested more than `max` levels deep. Walked
 * with a stack of its own: the value may be deep enough to overflow the call stack of a recursive
 * walk, which is what it is checked for.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return false;
}
