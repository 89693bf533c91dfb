import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';

type JsonObject = Record<string, unknown>;
type SchemaNode = { kind?: string; type?: string; pipe?: readonly SchemaNode[]; title?: string } & Record<string, unknown>;

/**
 * The OpenAPI component name of a schema: the title it carries (`v.pipe(schema, v.title('Challenge'))`).
 * A titled schema is listed once under components.schemas and referenced wherever it is used.
 */
export function componentNameOf(schema: v.GenericSchema): string | undefined {
  const pipe = (schema as unknown as SchemaNode).pipe ?? [];
  for (let index = pipe.length - 1; index > 0; index--) {
    const item = pipe[index];
    if (item?.type === 'title' && typeof item.title === 'string') return item.title;
  }
  return undefined;
}

const isSchema = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && (value as SchemaNode).kind === 'schema';

/** The schemas directly inside `schema`: object entries, array items, union options, the wrapped schema, the pipe's schemas. */
function childrenOf(schema: SchemaNode): SchemaNode[] {
  const children: unknown[] = [schema['item'], schema['wrapped'], schema['rest'], schema['key'], schema['value']];
  const entries = schema['entries'];
  if (entries && typeof entries === 'object') children.push(...Object.values(entries as Record<string, unknown>));
  for (const list of [schema['items'], schema['options'], schema.pipe]) if (Array.isArray(list)) children.push(...(list as unknown[]));
  return children.filter(isSchema).filter((child) => child !== schema);
}

/** Every titled schema reachable from `roots`, by title. One title on two different schemas is a mistake and throws. */
export function collectNamedSchemas(roots: readonly v.GenericSchema[]): Record<string, v.GenericSchema> {
  const named: Record<string, v.GenericSchema> = {};
  const seen = new Set<SchemaNode>();
  const visit = (node: SchemaNode) => {
    if (seen.has(node)) return;
    seen.add(node);
    const name = componentNameOf(node as unknown as v.GenericSchema);
    if (name !== undefined) {
      const known = named[name];
      if (known && known !== (node as unknown)) throw new Error(`Two different schemas are titled ${name}`);
      named[name] = node as unknown as v.GenericSchema;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  for (const root of roots) visit(root as unknown as SchemaNode);
  return named;
}

/**
 * Converts route schemas to JSON Schema (draft 2020-12, as OpenAPI 3.1 uses), with every titled
 * schema replaced by a `$ref` to its entry in components.schemas.
 */
export function schemaConverter(named: Record<string, v.GenericSchema>) {
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
    definitions: named,
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  };
  return {
    convert(schema: v.GenericSchema): JsonObject {
      // Only the titled schemas this one holds, so each conversion passes over just those.
      const {
        $schema: _schema,
        $defs: _defs,
        ...rest
      } = toJsonSchema(schema, {
        ...config,
        definitions: collectNamedSchemas([schema]),
      }) as JsonObject;
      return rest;
    },
    components(): Record<string, JsonObject> {
      return toJsonSchemaDefs(named, config) as Record<string, JsonObject>;
    },
  };
}
