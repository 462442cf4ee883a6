import fc from 'fast-check';
import { forgedCursor, headerText, junkKey, junkString, junkValue, nonUuidId, weirdContentType } from './junk.js';
import { type Method, type Operation, parametersOf } from './operations.js';

/** How a path id is chosen; ids of rows are picked when the request is sent, from what the database holds then. */
export type IdChoice =
  | { kind: 'own'; index: number }
  | { kind: 'own-uppercase'; index: number }
  | { kind: 'other-workspace'; index: number }
  | { kind: 'random'; id: string }
  | { kind: 'text'; text: string }
  | { kind: 'raw'; segment: string };

export type AuthChoice =
  | { kind: 'valid'; index: number }
  | { kind: 'key'; key: 'organization' | 'public' | 'revoked' | 'unknown' }
  /** An Authorization header as given; `{key}` stands for the valid private key. */
  | { kind: 'header'; value: string }
  | { kind: 'none' };

export type BodyChoice = { kind: 'none' } | { kind: 'text'; text: string; contentType: string };

export interface FuzzRequest {
  operation: Operation;
  method: Method;
  ids: Record<string, IdChoice>;
  query: [string, string][];
  auth: AuthChoice;
  body: BodyChoice;
  /** The `Idempotency-Key` header, when sent. */
  idempotencyKey?: string;
}

const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 6, arbitrary: fc.nat().map((index) => ({ kind: 'own', index }) as const) },
  { weight: 1, arbitrary: fc.nat().map((index) => ({ kind: 'own-uppercase', index }) as const) },
  { weight: 3, arbitrary: fc.nat().map((index) => ({ kind: 'other-workspace', index }) as const) },
  { weight: 1, arbitrary: fc.uuid({ version: [1, 4, 7] }).map((id) => ({ kind: 'random', id }) as const) },
  { weight: 2, arbitrary: nonUuidId.map((text) => ({ kind: 'text', text }) as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('%', '%zz', '%ff%fe', '%2F', '%00', '%2e%2e', '%C0%AE', '%ED%A0%80').map((segment) => ({ kind: 'raw', segment }) as const),
  },
);

const authChoice: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 20, arbitrary: fc.nat().map((index) => ({ kind: 'valid', index }) as const) },
  { weight: 2, arbitrary: fc.constantFrom('organization', 'public', 'revoked', 'unknown').map((key) => ({ kind: 'key', key }) as const) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          'bearer {key}',
          'BEARER {key}',
          'Bearer  {key}',
          '{key}',
          'Bearer {key} extra',
          'Bearer',
          'Bearer ',
          'Basic {key}',
          'Token {key}',
          'Bearer {key}{key}',
          'Bearer sk_',
          'Bearer ok_',
        ),
        headerText,
        headerText.map((text) => `Bearer ${text}`),
        headerText.map((text) => `Bearer sk_${text}`),
      )
      .map((value) => ({ kind: 'header', value }) as const),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) },
);

/**
 * How a value changes shape in place: wrapped in an array (an array where an object or a list
 * item goes), an empty array, an object made of it (an object where an array goes), or nested
 * in arrays or objects past any depth a reader should follow.
 */
type Reshape = 'in-array' | 'empty-array' | 'as-object' | 'nested-arrays' | 'nested-objects';

type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'set'; at: number; value: unknown }
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'reshape'; at: number; reshape: Reshape; depth: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((at) => ({ kind: 'delete', at }) as const),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: junkValue }),
  fc.record({ kind: fc.constant('add' as const), at: fc.nat(), key: junkKey(), value: junkValue }),
  fc.record({
    kind: fc.constant('reshape' as const),
    at: fc.nat(),
    reshape: fc.constantFrom<Reshape>('in-array', 'empty-array', 'as-object', 'nested-arrays', 'nested-objects'),
    // Deeper still is sent as text (deeplyNested): the fuzzer's own recursive walks would overflow on it.
    depth: fc.oneof(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 100, max: 500 })),
  }),
);

/** A valid body, or one broken in a few places, or junk in its place, sent as JSON text (or, now and then, as something else). */
function bodyChoice(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<BodyChoice> {
  const contentType = fc.oneof({ weight: 12, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: weirdContentType });
  const text = fc.oneof(
    { weight: 4, arbitrary: valid.map((body) => JSON.stringify(body)) },
    {
      weight: 8,
      arbitrary: fc.tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([body, mutations]) => JSON.stringify(mutate(body, mutations))),
    },
    { weight: 1, arbitrary: junkValue.map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.tuple(valid, junkKey(), junkValue, fc.boolean()).map(([body, key, value, last]) => withDuplicateKey(body, key, value, last)) },
    { weight: 1, arbitrary: fc.tuple(valid, fc.nat(), junkString).map(([body, cut, tail]) => malformed(JSON.stringify(body), cut, tail)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.oneof(fc.integer({ min: 30, max: 40 }), fc.integer({ min: 1000, max: 100_000 })), fc.boolean(), fc.boolean())
        .map(([body, depth, unknownField, objects]) => deeplyNested(body, depth, unknownField, objects)),
    },
  );
  return fc.record({ kind: fc.constant('text' as const), text, contentType });
}

/** Lists what can be changed in a body: every [container, key] at every depth, in a fixed order. */
function slotsOf(value: unknown, slots: [Record<string, unknown> | unknown[], string | number][] = []) {
  if (typeof value !== 'object' || value === null) return slots;
  for (const [key, item] of Object.entries(value)) {
    slots.push([value as Record<string, unknown>, Array.isArray(value) ? Number(key) : key]);
    slotsOf(item, slots);
  }
  return slots;
}

function containersOf(value: unknown, found: (Record<string, unknown> | unknown[])[] = []) {
  if (typeof value === 'object' && value !== null) {
    found.push(value as Record<string, unknown>);
    Object.values(value).forEach((item) => containersOf(item, found));
  }
  return found;
}

function mutate(body: Record<string, unknown>, mutations: Mutation[]): unknown {
  const copy = structuredClone(body);
  for (const change of mutations) {
    if (change.kind === 'add') {
      const containers = containersOf(copy);
      const container = containers[change.at % containers.length];
      if (Array.isArray(container)) container.push(change.value);
      // defineProperty, so that a key named __proto__ becomes a plain property that JSON.stringify writes out.
      else Object.defineProperty(container, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const slots = slotsOf(copy);
    if (slots.length === 0) continue;
    const [container, key] = slots[change.at % slots.length];
    const slot = container as Record<string | number, unknown>;
    if (change.kind === 'set') slot[key] = change.value;
    else if (change.kind === 'reshape') slot[key] = reshaped(slot[key], change.reshape, change.depth);
    else if (Array.isArray(container)) container.splice(key as number, 1);
    else delete container[key as string];
  }
  return copy;
}

function reshaped(value: unknown, reshape: Reshape, depth: number): unknown {
  switch (reshape) {
    case 'in-array':
      return [value];
    case 'empty-array':
      return [];
    case 'as-object':
      return Array.isArray(value) ? Object.fromEntries(value.map((item, index) => [index, item])) : { value };
    case 'nested-arrays':
    case 'nested-objects': {
      let nested = value;
      for (let level = 0; level < depth; level++) nested = reshape === 'nested-arrays' ? [nested] : { nested };
      return nested;
    }
  }
}

/** The body's JSON text with `key` written twice: the junk value first (the valid one wins) or last (the junk wins). */
function withDuplicateKey(body: Record<string, unknown>, junkKeyName: string, value: unknown, last: boolean): string {
  const key = Object.keys(body)[0] ?? junkKeyName;
  const junk = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  const inner = JSON.stringify(body).slice(1, -1);
  if (inner === '') return `{${junk},${junk}}`;
  return last ? `{${inner},${junk}}` : `{${junk},${inner}}`;
}

/**
 * The body with a field (one of its own, or an unknown one) replaced by arrays or objects nested
 * `depth` deep, as text: stack-hungry for any recursive reader.
 */
function deeplyNested(body: Record<string, unknown>, depth: number, unknownField: boolean, objects: boolean): string {
  const key = unknownField ? 'nestedField' : (Object.keys(body)[0] ?? 'x');
  const [open, close] = objects ? ['{"a":', '}'] : ['[', ']'];
  return JSON.stringify({ ...body, [key]: 0 }).replace(`${JSON.stringify(key)}:0`, `${JSON.stringify(key)}:${open.repeat(depth)}0${close.repeat(depth)}`);
}

function malformed(text: string, cut: number, tail: string): string {
  return text.slice(0, cut % Math.max(text.length, 1)) + tail;
}

const listLimit = fc.constantFrom('0', '1001', '-1', '1e2', '0x10', ' 1', '', '1.5', 'abc', '99999999999', '00001', '１');

function queryChoice(valid: fc.Arbitrary<[string, string][]> | undefined): fc.Arbitrary<[string, string][]> {
  const base = valid ?? fc.constant([]);
  const junkPair = fc.oneof(
    listLimit.map((value) => ['limit', value] as [string, string]),
    junkString.map((value) => ['cursor', value.slice(0, 2000)] as [string, string]),
    forgedCursor.map((value) => ['cursor', value] as [string, string]),
    junkString.map((value) => ['key', value.slice(0, 2000)] as [string, string]),
    fc.tuple(junkKey(), junkString).map(([name, value]) => [name, value.slice(0, 2000)] as [string, string]),
    fc.constantFrom<[string, string]>(['limit[a]', '1'], ['limit[]', '2'], ['cursor', ''], ['limit', '1']),
  );
  return fc.oneof(
    { weight: 4, arbitrary: base },
    { weight: 1, arbitrary: fc.tuple(base, fc.array(junkPair, { minLength: 1, maxLength: 3 })).map(([pairs, junk]) => [...pairs, ...junk]) },
  );
}

/**
 * A few keys that every POST of a run shares, so that keys come back: with the body of their first
 * use (a replay), with another body (409), or on another route (a key of its own there).
 */
const REUSED_KEYS = ['retry-1', 'retry-2', 'order 7f3a-PAYMENT'];
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
/** What a client can put in the header (Node refuses other control characters): tab, Latin-1, UTF-8 bytes read as Latin-1. */
const malformedKey = fc.oneof(
  fc.constantFrom(
    '',
    '   ',
    'a'.repeat(256),
    'k'.repeat(300),
    'tab\there',
    '\tleading-tab',
    'clé',
    '\u00a0nbsp',
    Buffer.from('键-🔑', 'utf8').toString('latin1'),
  ),
  headerText.filter((text) => /[^\x20-\x7e]/.test(text)),
  fc.string({ unit: printable, minLength: 256, maxLength: 1000 }),
);
const idempotencyKey = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom(...REUSED_KEYS) },
  { weight: 2, arbitrary: fc.oneof(fc.uuid(), fc.string({ unit: printable, minLength: 1, maxLength: 255 })) },
  { weight: 1, arbitrary: malformedKey },
);
/** Only creates honour the header; elsewhere it is sent now and then, to be ignored. */
const idempotencyKeyFor = (operation: Operation) =>
  operation.method === 'post' ? idempotencyKey : fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: idempotencyKey });

const anyMethod = fc.constantFrom<Method>('get', 'post', 'put', 'patch', 'delete');

/** A third of the requests are valid in every part, so that the paths that succeed are fuzzed too; the rest are broken anywhere. */
export function requestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 1, arbitrary: validRequestFor(operation) }, { weight: 2, arbitrary: brokenRequestFor(operation) });
}

function validRequestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const ownId = fc.nat().map((index): IdChoice => ({ kind: 'own', index }));
  const body: fc.Arbitrary<BodyChoice> = operation.body
    ? operation.body.map((value) => ({ kind: 'text', text: JSON.stringify(value), contentType: 'application/json' }))
    : fc.constant({ kind: 'none' });
  return fc.record({
    operation: fc.constant(operation),
    method: fc.constant(operation.method),
    ids: fc.record(Object.fromEntries(parametersOf(operation.path).map((name) => [name, ownId]))),
    query: operation.query ?? fc.constant([]),
    auth: fc.nat().map((index): AuthChoice => ({ kind: 'valid', index })),
    body,
    idempotencyKey: idempotencyKeyFor(operation),
  });
}

function brokenRequestFor(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const ids = Object.fromEntries(parametersOf(operation.path).map((name) => [name, idChoice]));
  const body: fc.Arbitrary<BodyChoice> = operation.body
    ? fc.oneof({ weight: 12, arbitrary: bodyChoice(operation.body) }, { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) })
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant({ kind: 'none' } as const) },
        { weight: 1, arbitrary: bodyChoice(fc.dictionary(junkKey(), junkValue, { maxKeys: 3 })) },
      );
  return fc.record({
    operation: fc.constant(operation),
    method: fc.oneof({ weight: 25, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: anyMethod }),
    ids: fc.record(ids),
    query: queryChoice(operation.query),
    auth: authChoice,
    body,
    idempotencyKey: idempotencyKeyFor(operation),
  });
}

/** Percent-encodes the UTF-8 bytes of `text` (a lone surrogate goes as the replacement character, as Node writes it). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
}
