/** Dotted paths of the fields an OpenAPI schema allows (`handler.requestHandler.url`; `[]` for an array's items). */
export function documentedFields(schema: Schema, components: Record<string, Schema>, prefix = ''): string[] {
  if (schema.$ref !== undefined) return documentedFields(components[schema.$ref.replace('#/components/schemas/', '')], components, prefix);
  const variants = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  const fromVariants = variants.flatMap((variant) => documentedFields(variant, components, prefix));
  const fromItems = schema.items === undefined ? [] : documentedFields(schema.items, components, `${prefix}[]`);
  const fromProperties = Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    return [path, ...documentedFields(property, components, path)];
  });
  return [...fromVariants, ...fromItems, ...fromProperties];
}

/** The same paths, for the fields a value has. */
export function fieldsOf(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => fieldsOf(item, `${prefix}[]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, item]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    return [path, ...fieldsOf(item, path)];
  });
}

export interface Schema {
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
}
