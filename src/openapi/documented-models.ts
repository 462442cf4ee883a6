import type { Type } from '@nestjs/common';
import { ApiSchema, getSchemaPath, type ReferenceObject, type SchemaObject } from '@nestjs/swagger';

/**
 * A model for the document only, named `name`, with the properties `properties`' decorators
 * describe, in that order; each must name its `type` or `enum`, as there is no TypeScript type to
 * reflect. The variants of a body that validates as one class but reads as several
 * (a tool of each type, say) are made this way.
 */
export function documentedModel(name: string, properties: Record<string, PropertyDecorator>): Type<unknown> {
  class Model {}
  for (const [key, decorate] of Object.entries(properties)) decorate(Model.prototype, key);
  ApiSchema({ name })(Model);
  return Model;
}

const oneOfs = new Map<string, SchemaObject>();
const variantModels = new Set<Type<unknown>>();

/**
 * Registers the schema `name` as one of `variants`, told apart by the value of `discriminator.propertyName`
 * when given; buildApiDocument adds it and the variants to the document. Returns a reference to it.
 */
export function namedOneOf(
  name: string,
  variants: Type<unknown>[],
  discriminator?: { propertyName: string; mapping: Record<string, Type<unknown>> },
): ReferenceObject {
  for (const variant of variants) variantModels.add(variant);
  oneOfs.set(name, {
    oneOf: variants.map((variant) => ({ $ref: getSchemaPath(variant) })),
    ...(discriminator === undefined
      ? {}
      : {
          discriminator: {
            propertyName: discriminator.propertyName,
            mapping: Object.fromEntries(Object.entries(discriminator.mapping).map(([value, variant]) => [value, getSchemaPath(variant)])),
          },
        }),
  });
  return { $ref: getSchemaPath(name) };
}

/** What namedOneOf registered: the named schemas, and the variant models they refer to. */
export function registeredOneOfs(): { schemas: Record<string, SchemaObject>; models: Type<unknown>[] } {
  return { schemas: Object.fromEntries(oneOfs), models: [...variantModels] };
}
