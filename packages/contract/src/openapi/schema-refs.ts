import { componentSchemas, QUERY_SCHEMAS, type ComponentName } from '../schemas/components';

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The components published in the document: every named schema except the query objects. */
export const documentedComponents = (Object.keys(componentSchemas) as ComponentName[]).filter(
  (name) => !(QUERY_SCHEMAS as readonly string[]).includes(name),
);

const nameOf = new Map<object, string>(documentedComponents.map((name) => [componentSchemas[name], name]));

/**
 * A copy of `schema` for the document in which every nested schema object that is itself a
 * named component (the very same object, not a look-alike) becomes a `$ref` to it. The
 * document therefore holds one copy of each schema, and it is the one ajv compiles.
 */
export function withRefs(schema: unknown, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefs(item, false));
  if (typeof schema !== 'object' || schema === null) return schema;
  const name = nameOf.get(schema);
  if (!root && name !== undefined) return schemaRef(name);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withRefs(value, false)]));
}

export function componentsSchemas(): Record<string, unknown> {
  return Object.fromEntries(documentedComponents.map((name) => [name, withRefs(componentSchemas[name])]));
}
