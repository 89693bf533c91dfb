/** The parts of the generated OpenAPI document the tests read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  [keyword: string]: unknown;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { schema: JsonSchema; description?: string }>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiOperation {
  summary: string;
  description?: string;
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema } | undefined> };
  responses: Record<string, OpenApiResponse | undefined>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

/**
 * The document with every `$ref` to a named component schema replaced by the schema itself, for
 * tests that read the properties of the schema an operation uses (the named schemas do not nest
 * themselves, so this ends).
 */
export function inlineSchemaRefs<T extends { components: { schemas: Record<string, JsonSchema> } }>(document: T): T {
  const schemas = document.components.schemas;
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (name !== 'Problem') return inline(schemas[name]);
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner)]));
  };
  return { ...document, paths: inline((document as unknown as { paths: unknown }).paths) };
}
