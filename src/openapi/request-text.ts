import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { NO_NUL } from '../validation/validation.decorators.js';

type Schema = SchemaObject | ReferenceObject;
type Operation = { parameters?: ({ schema?: Schema } | ReferenceObject)[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };

const SCHEMA_PREFIX = '#/components/schemas/';

/**
 * Every string a request carries is stored in or compared with PostgreSQL text, which cannot hold
 * NUL, so the service refuses NUL in each (NO_NUL, or a stricter rule). The document says so once
 * here: a string schema of a request body or parameter that names no `format`, `enum` or `pattern`
 * of its own gets NO_NUL as its pattern. Response schemas are left as they are: an error message
 * may quote what the caller sent.
 */
export function refuseNulInRequestText(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (schema: Schema | undefined): void => {
    if (schema === undefined) return;
    if ('$ref' in schema) {
      const name = schema.$ref.replace(SCHEMA_PREFIX, '');
      if (seen.has(name) || schemas[name] === undefined) return;
      seen.add(name);
      return visit(schemas[name]);
    }
    if (schema.type === 'string' && schema.format === undefined && schema.enum === undefined && schema.pattern === undefined) {
      schema.pattern = NO_NUL.source;
    }
    for (const child of [
      ...Object.values(schema.properties ?? {}),
      schema.items,
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined,
      ...(schema.allOf ?? []),
      ...(schema.anyOf ?? []),
      ...(schema.oneOf ?? []),
    ]) {
      visit(child);
    }
  };
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations) as Operation[]) {
      if (typeof operation !== 'object' || operation === null) continue;
      for (const parameter of operation.parameters ?? []) if (!('$ref' in parameter)) visit(parameter.schema);
      for (const mediaType of Object.values(operation.requestBody?.content ?? {})) visit(mediaType.schema);
    }
  }
}
