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
