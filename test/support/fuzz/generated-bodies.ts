import fc from 'fast-check';
import { resolveSchema, type Schema } from '../openapi-routes.js';

type Body = Record<string, unknown>;

/**
 * Valid bodies of a request schema of openapi.json, for the routes without a generator of their
 * own: every property now and then, each value within its documented type, enum and limits.
 * `text(max)` gives storable text of at most `max` characters.
 */
export function generatedBody(schema: Schema, text: (max: number) => fc.Arbitrary<string>): fc.Arbitrary<Body> {
  return valueOf(schema, text) as fc.Arbitrary<Body>;
}

function valueOf(schema: Schema, text: (max: number) => fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const own = resolveSchema(schema);
  const value = ownValueOf(own, text);
  return own.nullable === true ? fc.oneof(fc.constant(null), value) : value;
}

function ownValueOf(schema: Schema, text: (max: number) => fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  if (schema.oneOf !== undefined) return fc.oneof(...(schema.oneOf as Schema[]).map((variant) => valueOf(variant, text)));
  if (schema.enum !== undefined) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const strings = text(schema.maxLength ?? 1000).filter((value) => value.length >= minLength && (minLength === 0 || /\S/.test(value)));
      return schema.format === 'uri' ? fc.webUrl() : strings;
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueOf(schema.items, text), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
    default: {
      const required = new Set<string>(schema.required ?? []);
      const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => {
        const value = valueOf(property, text);
        return [name, required.has(name) ? value : fc.option(value, { nil: undefined, freq: 2 })] as const;
      });
      return fc.record(Object.fromEntries(properties)).map((body) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)));
    }
  }
}
