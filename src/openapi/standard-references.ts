import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

type Schema = SchemaObject | ReferenceObject;

/**
 * The one way OpenAPI 3.0.3 reads `null` as a value: `nullable` widens the `type` beside it, and
 * `enum` must then list null too.
 */
export const NULL_SCHEMA: SchemaObject = { type: 'object', nullable: true, enum: [null] };

const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf', 'not'] as const;

/**
 * @nestjs/swagger writes a `$ref` it must annotate, or that it was told is nullable, as a one-item
 * `allOf`. Under OpenAPI 3.0.3 `nullable` then widens only the `type: object` beside it, so the
 * `allOf` still refuses null. Rewritten here, once for every schema of the document:
 * - a nullable reference is `anyOf: [{$ref}, NULL_SCHEMA]`;
 * - a one-item `allOf` with nothing beside it is its plain `$ref`, which is also what generators
 *   need (they read an `allOf` of a schema with a discriminator as inheritance from it).
 * Any other `nullable` beside a composition or a `$ref` is refused, as no standard tool reads it as
 * "or null".
 */
export function standardReferences<T extends Schema>(schema: T, where: string): T {
  if ('$ref' in schema) return schema;
  const rewritten: SchemaObject = { ...schema };
  if (rewritten.properties !== undefined) {
    rewritten.properties = Object.fromEntries(
      Object.entries(rewritten.properties).map(([name, property]) => [name, standardReferences(property, `${where}.${name}`)]),
    );
  }
  if (rewritten.items !== undefined) rewritten.items = standardReferences(rewritten.items, `${where}[]`);
  if (typeof rewritten.additionalProperties === 'object') {
    rewritten.additionalProperties = standardReferences(rewritten.additionalProperties, `${where}{}`);
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = rewritten[keyword];
    if (members !== undefined) rewritten[keyword] = members.map((member, index) => standardReferences(member, `${where}.${keyword}[${index}]`));
  }
  return (rewritten.nullable === true ? nullableReference(rewritten, where) : plainReference(rewritten)) as T;
}

function nullableReference(schema: SchemaObject, where: string): SchemaObject {
  if (!COMPOSITIONS.some((keyword) => keyword in schema)) return schema;
  const { nullable, type, allOf, ...annotations } = schema;
  const reference = allOf?.length === 1 ? allOf[0] : undefined;
  const composed = Object.keys(annotations).some((key) => (COMPOSITIONS as readonly string[]).includes(key));
  if (reference === undefined || !('$ref' in reference) || composed || (type !== undefined && type !== 'object')) {
    throw new Error(`${where}: nullable beside a composition is read by no standard tool as "or null"; write anyOf: [schema, NULL_SCHEMA]`);
  }
  return { ...annotations, anyOf: [reference, NULL_SCHEMA] };
}

function plainReference(schema: SchemaObject): Schema {
  const only = schema.allOf?.length === 1 && Object.keys(schema).length === 1 ? schema.allOf[0] : undefined;
  return only !== undefined && '$ref' in only ? only : schema;
}
