import * as v from 'valibot';

type JsonSchema = Record<string, unknown>;

const KEY = 'parsedAs';

/**
 * Metadata for a pipeline that turns text into a value (a query parameter such as `limit`): the
 * JSON Schema of the value it yields. The OpenAPI document describes a parameter by what the API
 * accepts (an integer from 1 to 100), not by how it travels in the URL (text).
 */
export const parsedAs = <TInput>(jsonSchema: JsonSchema) => v.metadata<TInput, { [KEY]: JsonSchema }>({ [KEY]: jsonSchema });

const WRAPPERS = new Set(['optional', 'exact_optional', 'nullish', 'undefinedable']);

/**
 * The schema `parsedAs` declared for `schema` (looking through optional wrappers), with the
 * parsed default when the wrapper has one; undefined when the schema carries no such metadata.
 */
export function parsedSchemaOf(schema: v.GenericSchema): JsonSchema | undefined {
  const wrapper = schema as { type: string; wrapped?: v.GenericSchema; default?: unknown };
  const inner = WRAPPERS.has(wrapper.type) && wrapper.wrapped ? wrapper.wrapped : schema;
  const pipe = (inner as { pipe?: readonly { type?: string; metadata?: Record<string, unknown> }[] }).pipe ?? [];
  const declared = pipe.find((item) => item.type === 'metadata' && item.metadata?.[KEY])?.metadata?.[KEY] as JsonSchema | undefined;
  if (!declared) return undefined;
  if (wrapper.default === undefined) return { ...declared };
  const fallback = v.safeParse(schema, undefined);
  return fallback.success ? { ...declared, default: fallback.output } : { ...declared };
}
