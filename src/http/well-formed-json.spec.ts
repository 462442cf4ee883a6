import { describe, expect, it } from '@jest/globals';
import { holdsUnpairedSurrogate, mayHoldUnpairedSurrogate, shapeProblem } from './well-formed-json.js';

const raw = (text: string) => Buffer.from(text, 'utf8');

describe('shapeProblem', () => {
  const limits = { depth: 3, membersPerObject: 3, entries: 8 };
  const tooDeep = 'The request body nests arrays and objects more than 3 levels deep';
  const tooWide = 'The request body has an object of more than 3 members';
  const tooMany = 'The request body has more than 8 list items and object members in all';

  it.each([
    ['objects and arrays at the depth limit', `${'['.repeat(3)}${']'.repeat(3)}`, undefined],
    ['one level past it', `${'['.repeat(4)}${']'.repeat(4)}`, tooDeep],
    ['objects count as arrays do', '{"a":{"b":{"c":{"d":1}}}}', tooDeep],
    ['brackets inside a string do not count', '{"a":"[[[[[[[[{{{{"}', undefined],
    ['an escaped quote does not end the string', '{"a":"\\"[[[[[[["}', undefined],
    ['an escaped backslash before the quote does', '{"a":"\\\\"}[[[[', tooDeep],
    ['siblings do not add up', '[[1],[2],[3]]', undefined],
    ['an unterminated string', '{"a":"[[[[[[', undefined],
    ['an object at the member limit', '{"a":1,"b":2,"c":3}', undefined],
    ['an object one member past it', '{"a":1,"b":2,"c":3,"d":4}', tooWide],
    ['a nested object past it', '{"a":{"b":1,"c":2,"d":3,"e":4}}', tooWide],
    ['members of sibling objects do not add up', '[{"a":1,"b":2,"c":3},{"a":1,"b":2,"c":3}]', undefined],
    ['an object counts its own members, not those of a list it holds', '{"a":[1,2,3,4,5,6],"b":1}', undefined],
    ['a list of as many items as the body may hold', '[1,2,3,4,5,6,7,8]', undefined],
    ['one item more', '[1,2,3,4,5,6,7,8,9]', tooMany],
    ['items and members at every depth add up', '{"a":[1,2],"b":[3,4],"c":{"d":[5,6]}}', tooMany],
    ['empty lists and objects hold nothing', '[[],{},[ ],{ },[],{},[]]', undefined],
    ['whitespace around the last entry', '[ 1 , 2 , [ 3 ] , { "a" : 4 } ]', undefined],
    ['commas inside strings do not count', '{"a":",,,,,,"}', undefined],
  ])('%s', (_, text, problem) => {
    expect(shapeProblem(raw(text), limits)).toBe(problem);
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
