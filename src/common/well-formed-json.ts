/** A lone UTF-16 surrogate: `"\ud800"` is valid JSON but not Unicode text. */
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

/**
 * A JSON.parse reviver that refuses strings (and keys) holding an unpaired surrogate: PostgreSQL
 * refuses them in jsonb, and text columns would silently store U+FFFD instead.
 */
export function refuseUnpairedSurrogates(key: string, value: unknown): unknown {
  if (UNPAIRED_SURROGATE.test(key) || (typeof value === 'string' && UNPAIRED_SURROGATE.test(value))) {
    throw new SyntaxError('a string holds an unpaired UTF-16 surrogate (such as \\ud800), which is not Unicode text');
  }
  return value;
}
