import fc from 'fast-check';

/** Code points that break naive handling: NUL, controls, RTL override, BOM, zero-width joiner, a lone surrogate of each half. */
const NASTY_CHARS = ['\u0000', '\u0001', '\u001f', '\u007f', '\u202e', '\u200f', '\ufeff', '\u200d', '\ud800', '\udfff', '\u2028', '\u00a0'];

/**
 * Text that is valid Unicode and still odd: noncharacters, NEL and the paragraph separator,
 * combining marks piled on one letter, variation selectors, an emoji ZWJ sequence, a flag, a
 * Hangul filler, the last code point, fullwidth and mathematical letters that normalise to ASCII.
 */
const ODD_TEXT = [
  '\ufffe',
  '\uffff',
  '\ufdd0',
  '\u{10ffff}',
  '\u0085',
  '\u2029',
  'e\u0301\u0301\u0301\u0301',
  '\ufe0f',
  '👩\u200d👩\u200d👧\u200d👦',
  '🇺🇳',
  '\u3164',
  'ﬃ',
  'Ａ𝐁',
  'İı',
  'ß',
];

const nastyChar = fc.oneof(fc.constantFrom(...NASTY_CHARS), fc.constantFrom(...ODD_TEXT));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Short strings of any Unicode: astral planes, lone surrogates, NUL, RTL and the like. */
export const unicodeString = fc.string({
  unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), nastyChar, loneSurrogate),
  maxLength: 40,
});

/** A string of 256 up to about 100k characters: a short random (possibly exotic) piece repeated. */
export const hugeString = fc
  .tuple(
    fc.oneof(
      fc.constant('a'),
      unicodeString.filter((s) => s.length > 0),
    ),
    fc.integer({ min: 256, max: 100_000 }),
  )
  .map(([piece, length]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));

export const junkString = fc.oneof(
  { weight: 3, arbitrary: unicodeString },
  { weight: 1, arbitrary: hugeString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t\n',
      'null',
      'true',
      '0',
      '-1',
      '1e309',
      '{}',
      '[]',
      '<script>',
      "'; DROP TABLE x;--",
      '../../etc/passwd',
      '%00',
      '__proto__',
    ),
  },
  { weight: 1, arbitrary: fc.uuid() },
);

const scalarJunk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -0, 0.5, 640.5, 4097),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  junkString,
);

/** Any JSON value, nested a few levels deep, with junk strings, odd numbers and odd keys. */
export const junkValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalarJunk },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(junkKey(), tie('value'), { maxKeys: 4 }) },
  ),
})).value;

export function junkKey(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'workspaceId', 'createdAt', 'type', '', ' ', 'value'),
    fc.string({ maxLength: 12 }),
    unicodeString,
  );
}

/** Ids that are not UUIDs, as they would appear in a path segment. */
export const nonUuidId = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    'null',
    'undefined',
    '1e3',
    ' ',
    '..',
    '%',
    '00000000-0000-0000-0000-00000000000',
    '00000000-0000-4000-8000-0000000000000',
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  ),
  fc.uuid().map((id) => `${id}x`),
  fc.uuid().map((id) => id.replaceAll('-', '')),
  fc.uuid().map((id) => `{${id}}`),
  unicodeString.filter((s) => s.length > 0),
  hugeString.map((s) => s.slice(0, 1000)),
);

/** Header values a client can put on the wire (visible ASCII, tab, Latin-1): no CR, LF or NUL. */
export const headerText = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constant(0x09)).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

export const weirdContentType = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/xml',
    'application/json; charset=utf-16',
    'application/json; charset=bogus',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/vnd.api+json',
    'application/merge-patch+json',
    'application/jsonx',
    'json',
    '*/*',
    ' ',
  ),
  headerText,
);

/** Text that is valid Unicode, with the odd pieces of ODD_TEXT mixed in: storable, and must come back as sent. */
export const oddUnicodeText = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 3 }), fc.constantFrom(...ODD_TEXT)), { minLength: 1, maxLength: 8 })
  .map((pieces) => pieces.join(''));

/**
 * A cursor as a client could forge it: base64url of JSON naming a position of any shape, with
 * instants across JavaScript's whole range (years -271821 to 275760, year 0, before 1970),
 * other types, missing or extra elements, or of no JSON at all.
 */
export const forgedCursor: fc.Arbitrary<string> = fc
  .oneof(
    fc.tuple(
      fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((date) => date.toISOString()),
      fc.uuid(),
    ),
    fc.tuple(
      fc.constantFrom(
        '-271821-04-20T00:00:00.000Z',
        '+275760-09-13T00:00:00.000Z',
        '0000-01-01T00:00:00.000Z',
        '1969-12-31T23:59:59.999Z',
        '9999-12-31T23:59:59.999Z',
      ),
      fc.uuid(),
    ),
    fc.tuple(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      fc.uuid(),
      junkValue,
    ),
    fc.tuple(junkValue, fc.uuid()),
    fc.tuple(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      junkValue,
    ),
    junkValue,
  )
  .map((position) => Buffer.from(JSON.stringify(position) ?? 'undefined').toString('base64url'));

/**
 * Header values that look like a stored secret's envelope (`enc:v1:<key id>:<iv>:<tag>:<data>`),
 * which the service must store and return as sent, never read as one.
 */
export const envelopeLookAlike = fc.oneof(
  fc.constantFrom('enc:v1:00000000:AA:AA:', 'enc:v1:', 'enc:v1::::', 'enc:v1:00000000:AA:AA:AA', 'ENC:V1:00000000:AA:AA:', 'enc:v2:00000000:AA:AA:'),
  fc
    .tuple(fc.stringMatching(/^[0-9a-f]{8}$/), fc.base64String({ maxLength: 24 }), fc.base64String({ maxLength: 24 }), fc.base64String({ maxLength: 40 }))
    .map(([keyId, iv, tag, data]) => `enc:v1:${keyId}:${iv}:${tag}:${data}`),
);
