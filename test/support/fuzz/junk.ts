import fc from 'fast-check';

/** Code points that break naive handling: NUL, controls, RTL override, BOM, zero-width joiner, a lone surrogate of each half. */
const NASTY_CHARS = ['\u0000', '\u0001', '\u001f', '\u007f', '\u202e', '\u200f', '\ufeff', '\u200d', '\ud800', '\udfff', '\u2028', '\u00a0'];

const nastyChar = fc.constantFrom(...NASTY_CHARS);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Short strings of any Unicode: astral planes, lone surrogates, NUL, RTL and the like. */
export const unicodeString = fc.string({
  unit: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), nastyChar, loneSurrogate),
  maxLength: 40,
});

/** A string of 256 up to about 100k characters: a short random (possibly exotic) piece repeated. */
export const hugeString = fc
  .tuple(fc.oneof(fc.constant('a'), unicodeString.filter((s) => s.length > 0)), fc.integer({ min: 256, max: 100_000 }))
  .map(([piece, length]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));

export const junkString = fc.oneof(
  { weight: 3, arbitrary: unicodeString },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t\n', 'null', 'true', '0', '-1', '1e309', '{}', '[]', '<script>', "'; DROP TABLE x;--", '../../etc/passwd', '%00', '__proto__') },
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
  fc.constantFrom('0', '-1', 'null', 'undefined', '1e3', ' ', '..', '%', '00000000-0000-0000-0000-00000000000', '00000000-0000-4000-8000-0000000000000', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
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
