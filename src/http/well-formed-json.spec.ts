import { describe, expect, it } from '@jest/globals';
import { holdsUnpairedSurrogate, mayHoldUnpairedSurrogate, nestsDeeperThan } from './well-formed-json.js';

const raw = (text: string) => Buffer.from(text, 'utf8');

describe('nestsDeeperThan', () => {
  it.each([
    ['objects and arrays at the limit', `${'['.repeat(3)}${']'.repeat(3)}`, false],
    ['one level past it', `${'['.repeat(4)}${']'.repeat(4)}`, true],
    ['objects count as arrays do', '{"a":{"b":{"c":{"d":1}}}}', true],
    ['brackets inside a string do not count', '{"a":"[[[[[[[[{{{{"}', false],
    ['an escaped quote does not end the string', '{"a":"\\"[[[[[[["}', false],
    ['an escaped backslash before the quote does', '{"a":"\\\\"}[[[[', true],
    ['siblings do not add up', '[[1],[2],[3],[4],[5]]', false],
    ['an unterminated string', '{"a":"[[[[[[', false],
  ])('%s', (_, text, deeper) => {
    expect(nestsDeeperThan(raw(text), 3)).toBe(deeper);
  });
});

describe('the lone-surrogate check', () => {
  it.each([
    ['no escape at all', '{"a":"plain é 😀"}', false],
    ['another \\u escape', '{"a":"\\u00e9"}', false],
    ['a high-surrogate escape', '{"a":"\\ud83d"}', true],
    ['an upper-case low-surrogate escape', '{"a":"\\uDE00"}', true],
  ])('looks at parsed strings only when the raw text could hold one: %s', (_, text, suspect) => {
    expect(mayHoldUnpairedSurrogate(raw(text))).toBe(suspect);
  });

  it.each([
    ['a pair', { a: '\ud83d\ude00' }, false],
    ['a lone high surrogate in a value', { a: ['x', { b: '\ud83d' }] }, true],
    ['a lone low surrogate in a key', { '\ude00': 1 }, true],
    ['none', { a: [1, null, true, 'é'] }, false],
  ])('finds unpaired surrogates at any depth: %s', (_, value, found) => {
    expect(holdsUnpairedSurrogate(value)).toBe(found);
  });

  it('walks a list of 500,000 items (a 1 MB body) without spreading it into one call', () => {
    expect(holdsUnpairedSurrogate([...Array.from({ length: 500_000 }, () => 0), '\udfff'])).toBe(true);
  });

  it('walks a deeply nested value without recursion', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(holdsUnpairedSurrogate(deep)).toBe(true);
  });
});
