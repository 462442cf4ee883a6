import { isUtf8 } from 'node:buffer';

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
      for (const item of next) pending.push(item);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, member] of Object.entries(next)) {
        if (UNPAIRED_SURROGATE.test(key)) return true;
        pending.push(member);
      }
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSERS = new Set([0x5d, 0x7d]);
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * What the raw text says before the parser does, or undefined: bytes that are not UTF-8, which the
 * decoder would quietly turn into U+FFFD (storing, and comparing for an idempotent retry, text
 * nobody sent); and a JSON value that is no object, which body-parser's strict mode would call "not valid JSON".
 */
export function bodyTextProblem(raw: Buffer): string | undefined {
  if (!isUtf8(raw)) return 'Malformed JSON body: the text is not valid UTF-8';
  // body-parser drops a byte order mark before parsing; so does this.
  const text = raw.subarray(raw.subarray(0, 3).equals(BYTE_ORDER_MARK) ? 3 : 0);
  const first = text.find((byte) => !WHITESPACE.has(byte));
  if (first === undefined || first === OPEN_OBJECT || first === OPEN_ARRAY) return undefined;
  const scalar = parsedOrUndefined(text.toString('utf8'));
  return scalar === undefined ? undefined : `The request body must be a JSON object, not ${scalar === null ? 'null' : `a ${typeof scalar}`}`;
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface ShapeLimits {
  depth: number;
  membersPerObject: number;
  /** List items and object members, at every depth together. */
  entries: number;
}

/**
 * What makes JSON text too costly to map and validate, read from its raw bytes before it is parsed;
 * undefined when nothing does. Nesting deeper than `depth`: the mappers and validators after the
 * parser recurse, and would overflow the stack. An object of more than `membersPerObject` members:
 * class-transformer de-duplicates each object's keys by scanning them all for each one, so one
 * object of 80,000 members held the event loop for 4 s. More than `entries` items and members in
 * all: class-transformer copies every one, even in fields the validator then refuses, and 320,000
 * empty lists took it 570 ms. Strings are skipped with a native search for their closing quote.
 */
export function shapeProblem(raw: Buffer, limits: ShapeLimits): string | undefined {
  // Per open object or list: the commas seen at its level, or -1 for a list (its items cost no key scan).
  const commas: number[] = [];
  let entries = 0;
  let previous = 0;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (byte === QUOTE) {
      i = closingQuote(raw, i);
    } else if (byte === COMMA) {
      entries++;
      const depth = commas.length - 1;
      if (depth >= 0 && commas[depth] !== -1 && ++commas[depth] >= limits.membersPerObject) {
        return `The request body has an object of more than ${limits.membersPerObject} members`;
      }
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (commas.push(byte === OPEN_OBJECT ? 0 : -1) > limits.depth) return `The request body nests arrays and objects more than ${limits.depth} levels deep`;
    } else if (CLOSERS.has(byte)) {
      commas.pop();
      // The last entry of a list or object has no comma after it; an empty one has no entry.
      if (previous !== OPEN_OBJECT && previous !== OPEN_ARRAY) entries++;
    } else if (WHITESPACE.has(byte)) {
      continue;
    }
    if (entries > limits.entries) return `The request body has more than ${limits.entries} list items and object members in all`;
    previous = byte;
  }
  return undefined;
}

/** The index of the quote closing the string opened at `opening` (or the end, for text that is not JSON). */
function closingQuote(raw: Buffer, opening: number): number {
  for (let quote = raw.indexOf(QUOTE, opening + 1); quote !== -1; quote = raw.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (raw[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return raw.length;
}

/** Cheap, on the raw bytes: JSON text can put NUL in a string only as the escape `\u0000`. */
export function mayHoldNul(raw: Buffer): boolean {
  return raw.includes('\\u0000');
}

interface Member {
  name: string;
  value: unknown;
  /** Where the member is, in the validation messages' form (`initialMessages[0].content`). */
  path: string;
  /** Where the object or list holding it is ('' for the body itself). */
  holderPath: string;
  inList: boolean;
}

/** Every member of a parsed body at any depth, each object's or list's in order. Iterative: a body may nest as deep as JSON.parse allows. */
function* membersOf(body: unknown): Generator<Member> {
  const pending: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: holder, path: holderPath } = next;
    if (typeof holder !== 'object' || holder === null) continue;
    const inList = Array.isArray(holder);
    const held: { value: unknown; path: string }[] = [];
    for (const [name, value] of Object.entries(holder)) {
      const path = inList ? `${holderPath}[${name}]` : holderPath === '' ? name : `${holderPath}.${name}`;
      yield { name, value, path, holderPath, inList };
      held.push({ value, path });
    }
    pending.push(...held.reverse());
  }
}

/**
 * The path of the first string (or field name) in a parsed body that holds NUL, which no PostgreSQL
 * text or jsonb value can hold; undefined when there is none. One check for every field of every
 * body, so that none reaches the database.
 */
export function pathOfNul(body: unknown): string | undefined {
  for (const { name, value, path, holderPath } of membersOf(body)) {
    if (name.includes('\u0000')) return holderPath === '' ? 'a field name' : `a field name in ${holderPath}`;
    if (typeof value === 'string' && value.includes('\u0000')) return path;
  }
  return undefined;
}

/** Names every JavaScript object already has: class-transformer and the validators read them from the prototype, and drop or misread them. */
export const INHERITED_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));
const INHERITED_NAME_TEXT = new RegExp(`"(?:${[...INHERITED_NAMES].join('|')})"|\\\\u`);

/** Cheap, on the raw bytes: whether a field name of the JSON text may be one of INHERITED_NAMES (written out, or behind an escape). */
export function mayHoldInheritedName(raw: Buffer): boolean {
  return INHERITED_NAME_TEXT.test(raw.toString('latin1'));
}

/** The first field name of a parsed body that every object inherits (`constructor`, `__proto__`, `toString`…), with where it is; undefined when none. */
export function inheritedFieldName(body: unknown): string | undefined {
  for (const { name, path, inList } of membersOf(body)) if (!inList && INHERITED_NAMES.has(name)) return path;
  return undefined;
}
