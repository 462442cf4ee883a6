import { describe, expect, it } from '@jest/globals';
import { OPENAPI_LIMITS, openApiWorkProblem } from './openapi-work.js';

const info = { title: 'Orders', version: '1.0.0' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `levels` schemas, each naming the next twice: 2^levels nodes once every $ref is replaced by what it names. */
function doubling(levels: number) {
  const schemas = Object.fromEntries(
    Array.from({ length: levels }, (_, i) => [
      `S${i}`,
      i === levels - 1 ? { type: 'string' } : { type: 'object', properties: { a: ref(`S${i + 1}`), b: ref(`S${i + 1}`) } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info,
    paths: { '/a': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: ref('S0') } } } } } } },
    components: { schemas },
  };
}

describe('openApiWorkProblem', () => {
  it('accepts $refs that expand to less than the limit, and $refs in a cycle', () => {
    expect(openApiWorkProblem(doubling(12))).toBeUndefined();
    const cycle = {
      openapi: '3.1.0',
      info,
      components: { schemas: { Node: { type: 'object', properties: { next: ref('Node'), children: { type: 'array', items: ref('Node') } } } } },
    };
    expect(openApiWorkProblem(cycle)).toBeUndefined();
  });

  it.each([17, 22, 30])('refuses %i schemas each naming the next twice, before any validator walks them', (levels) => {
    const started = performance.now();
    expect(openApiWorkProblem(doubling(levels))).toBe(
      `expands to more than ${OPENAPI_LIMITS.maxExpandedNodes} nodes (each $ref counts as a copy of what it names)`,
    );
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses a document nested deeper than the limit', () => {
    let schema: object = { type: 'string' };
    for (let i = 0; i < OPENAPI_LIMITS.maxDepth; i++) schema = { type: 'array', items: schema };
    expect(openApiWorkProblem({ openapi: '3.1.0', info, components: { schemas: { Deep: schema } } })).toBe(
      `nests objects and arrays more than ${OPENAPI_LIMITS.maxDepth} levels deep`,
    );
  });

  it('refuses more $refs than the limit', () => {
    const properties = Object.fromEntries(Array.from({ length: OPENAPI_LIMITS.maxRefs + 1 }, (_, i) => [`p${i}`, ref('Leaf')]));
    const document = { openapi: '3.1.0', info, components: { schemas: { Leaf: { type: 'string' }, Wide: { type: 'object', properties } } } };
    expect(openApiWorkProblem(document)).toBe(`has more than ${OPENAPI_LIMITS.maxRefs} $refs`);
  });

  it('refuses a chain of $refs longer than the limit', () => {
    const length = OPENAPI_LIMITS.maxRefHops + 2;
    const schemas = Object.fromEntries(Array.from({ length }, (_, i) => [`S${i}`, i === length - 1 ? { type: 'string' } : ref(`S${i + 1}`)]));
    expect(openApiWorkProblem({ openapi: '3.1.0', info, components: { schemas } })).toBe(
      `has $refs that lead through more than ${OPENAPI_LIMITS.maxRefHops} others`,
    );
  });

  it('leaves a $ref to nothing, or with a malformed pointer, to the validator', () => {
    const document = { openapi: '3.1.0', info, components: { schemas: { A: ref('Missing'), B: { $ref: '#/%E0%A4%A' } } } };
    expect(openApiWorkProblem(document)).toBeUndefined();
  });
});
