import type * as v from 'valibot';
import { parsedSchemaOf } from '../validation/parsedAs';
import { collectNamedSchemas, schemaConverter } from './openApiSchemas';
import type { Route } from './route';

/**
 * Builds the OpenAPI 3.1 document from the route table: the same valibot schemas the
 * dispatcher validates with become the request and response schemas. Titled schemas become
 * named components; each area becomes a tag.
 */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
  /** Where the API is served; by default the host that served the document (`/`). */
  servers?: { url: string; description?: string }[];
}

/** One area of the API (a tag in the document) and its routes. */
export interface OpenApiArea {
  name: string;
  description: string;
  routes: readonly Route[];
}

type JsonObject = Record<string, unknown>;
type Convert = (schema: v.GenericSchema) => JsonObject;

const problemRef = { $ref: '#/components/schemas/Problem' };
const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problemRef } },
});

/** The service is not published under an open licence. */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };
const SAME_HOST = [{ url: '/', description: 'The host that serves this document' }];

const schemasOf = (route: Route) =>
  [route.params, route.query, route.body, route.response, ...Object.values(route.responses ?? {}).map((answer) => answer?.schema)].filter(
    (schema): schema is v.GenericSchema => schema !== undefined,
  );

export function buildOpenApi(areas: readonly OpenApiArea[], info: OpenApiInfo): JsonObject {
  const routes = areas.flatMap((area) => area.routes.map((route) => ({ route, tag: area.name })));
  const named = collectNamedSchemas(routes.flatMap(({ route }) => schemasOf(route)));
  if (named['Problem']) throw new Error('The name Problem is taken by the problem+json schema');
  const converter = schemaConverter(named);
  const convert: Convert = (schema) => converter.convert(schema);
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const { route, tag } of routes) {
    const operation: JsonObject = {
      tags: [tag],
      summary: route.summary,
      description: `Who may call: ${route.guard.description}.`,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: [...pathParameters(route, convert), ...queryParameters(route, convert)],
      responses: responsesOf(route, convert),
      security: securityOf(route),
    };
    if (route.body) {
      const mediaType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
      operation['requestBody'] = { required: true, content: { [mediaType]: { schema: convert(route.body) } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  const { servers = SAME_HOST, ...about } = info;
  return {
    openapi: '3.1.0',
    info: { ...about, license: LICENSE },
    servers,
    tags: areas.filter((area) => area.routes.length).map(({ name, description }) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        edgeToken: { type: 'http', scheme: 'bearer', description: 'Edge API token of an on-site box' },
        serviceToken: { type: 'http', scheme: 'bearer', description: 'Credential of an internal service (challenges personalization)' },
      },
      schemas: {
        ...converter.components(),
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'requestId'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            instance: { type: 'string' },
            requestId: { type: 'string' },
            code: { type: 'string', description: 'A stable machine-readable code clients may switch on' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['path', 'message'],
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}

/** The credential an operation takes; an empty list says in so many words that it takes none. */
function securityOf(route: Route): JsonObject[] {
  switch (route.guard.security) {
    case 'bearer':
      return [{ bearerAuth: [] }];
    case 'edgeToken':
      return [{ edgeToken: [] }];
    case 'serviceToken':
      return [{ serviceToken: [] }];
    case 'none':
      return [];
  }
}

/**
 * The JSON Schema of each property of an object schema. A property that arrives as text and is
 * parsed (`parsedAs`, e.g. an integer `limit`) is described by the value it becomes.
 */
function propertiesOf(schema: v.GenericSchema, convert: Convert): { properties: Record<string, JsonObject>; required: Set<string> } {
  const json = convert(schema);
  const entries = (schema as { entries?: Record<string, v.GenericSchema> }).entries ?? {};
  const properties = Object.fromEntries(
    Object.entries((json['properties'] ?? {}) as Record<string, JsonObject>).map(([name, property]) => {
      const entry = entries[name];
      return [name, (entry && parsedSchemaOf(entry)) ?? property];
    }),
  );
  return { properties, required: new Set((json['required'] ?? []) as string[]) };
}

function pathParameters(route: Route, convert: Convert): JsonObject[] {
  const names = [...route.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] ?? '');
  const { properties } = route.params ? propertiesOf(route.params, convert) : { properties: {} as Record<string, JsonObject> };
  return names.map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
}

function queryParameters(route: Route, convert: Convert): JsonObject[] {
  if (!route.query) return [];
  const { properties, required } = propertiesOf(route.query, convert);
  return Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
}

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

const retryAfterHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 1 } });

/** Seconds the dispatcher asks a caller to wait after a transient database failure (see dispatch.ts). */
const TRANSIENT_RETRY_AFTER = 'Seconds to wait before trying again';

/**
 * Every answer of the route: its success status with the response schema, what the route
 * declares, and what the pipeline itself answers for it (400 with field errors when there is
 * input, 401/403 when it is guarded, 413/415 for a body, 405 for another method on the path, and
 * 503 with Retry-After when the database is briefly unavailable).
 */
function responsesOf(route: Route, convert: Convert): JsonObject {
  const responses: Record<string, JsonObject> = {};
  const success = route.status ?? 200;
  responses[String(success)] = {
    description: SUCCESS_DESCRIPTIONS[success] ?? 'Success',
    ...(route.response && success !== 204
      ? { content: { [route.responseType ?? 'application/json']: { schema: convert(route.response) } } }
      : {}),
  };
  if (route.params || route.query || route.body) responses['400'] = problemResponse('Invalid input; `errors` names each failing field');
  if (route.guard.security !== 'none') {
    responses['401'] = problemResponse('Missing or invalid credentials');
    responses['403'] = problemResponse('Authenticated but not allowed');
  }
  responses['405'] = {
    ...problemResponse('Another method than the ones this path supports'),
    headers: { Allow: { description: 'The supported methods', schema: { type: 'string' } } },
  };
  if (route.body) {
    responses['413'] = problemResponse('Body too large');
    responses['415'] = problemResponse(route.bodyType === 'form' ? 'Body is not a form' : 'Body is not JSON');
  }
  responses['503'] = {
    ...problemResponse('Briefly unable to answer (database busy or unreachable)'),
    headers: { 'Retry-After': retryAfterHeader(TRANSIENT_RETRY_AFTER) },
  };
  for (const [status, declared] of Object.entries(route.responses ?? {})) {
    if (!declared) continue;
    const isError = Number(status) >= 400;
    const headers = Object.fromEntries(
      Object.entries(declared.headers ?? {}).map(([name, description]) =>
        name.toLowerCase() === 'retry-after'
          ? ['Retry-After', retryAfterHeader(description)]
          : [name, { description, schema: { type: 'string' } }],
      ),
    );
    responses[status] = {
      ...(isError ? problemResponse(declared.description) : { description: declared.description }),
      ...(!isError && declared.schema && status !== '204' ? { content: { 'application/json': { schema: convert(declared.schema) } } } : {}),
      ...(isError && declared.schema ? { content: { 'application/json': { schema: convert(declared.schema) } } } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
    };
  }
  return responses;
}
