/** A lone UTF-16 surrogate: `"\ud800"` is valid JSON but not Unicode text. */
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

/**
 * Where JSON text (UTF-8, so with no raw surrogate) could hold one: an escape `\ud800`-`\udfff`.
 * A hit is no proof (`\\ud800` is a backslash and letters); it only makes the parsed value checked.
 */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

export const UNPAIRED_SURROGATE_MESSAGE = 'a string holds an unpaired UTF-16 surrogate (such as \\ud800), which is not Unicode text';

/** Cheap, on the raw UTF-8 bytes: false when no string of the parsed JSON can hold a lone surrogate. */
export function mayHoldUnpairedSurrogate(raw: Buffer): boolean {
  return raw.includes('\\u') && SURROGATE_ESCAPE.test(raw.toString('latin1'));
}

/**
 * Whether a parsed JSON value holds a string (or key) with an unpaired surrogate: PostgreSQL refuses
 * them in jsonb, and text columns would silently store U+FFFD instead. Iterative: a body may nest deeply.
 */
export function holdsUnpairedSurrogate(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (UNPAIRED_SURROGATE.test(next)) return true;
    } else if (Array.isArray(next)) {
      pending.push(...next);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, member] of Object.entries(next)) {
        if (UNPAIRED_SURROGATE.test(key)) return true;
        pending.push(member);
      }
    }
  }
  return false;
}
