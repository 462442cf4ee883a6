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

/**
 * The path of the first string (or field name) in a parsed body that holds NUL, which no PostgreSQL
 * text or jsonb value can hold, in class-validator's form (`initialMessages.0.content`); undefined
 * when there is none. One check for every field of every body, so that none reaches the database.
 * Iterative: a body may nest as deep as JSON.parse allows.
 */
export function pathOfNul(body: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string' && value.includes('\u0000')) return path;
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index];
      if (key.includes('\u0000')) return path === '' ? 'a field name' : `a field name in ${path}`;
      pending.push({ value: item, path: path === '' ? key : `${path}.${key}` });
    }
  }
  return undefined;
}
