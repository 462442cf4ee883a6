/**
 * Deeper than any body of the API needs (a function's handler.requestHandler is three levels), far
 * short of any recursive reader's stack: class-transformer copies unknown fields recursively, and a
 * field nested ~2,000 arrays deep overflowed it (a 500).
 */
export const MAX_NESTING_DEPTH = 32;

const [OPEN_ARRAY, OPEN_OBJECT, CLOSE_ARRAY, CLOSE_OBJECT, QUOTE, BACKSLASH] = [0x5b, 0x7b, 0x5d, 0x7d, 0x22, 0x5c];

/**
 * Whether JSON text (UTF-8) opens arrays or objects more than `max` levels deep, read from the
 * bytes before any parser sees them: JSON.parse of a body nested 400,000 levels held the event
 * loop for half a second and then overflowed the reviver's stack. Brackets inside strings do not
 * count; malformed text is left to the parser to refuse.
 */
export function jsonTextNestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}
