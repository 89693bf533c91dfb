import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { Route } from './route';

/**
 * Builds the OpenAPI 3.1 document from the route table: the same valibot schemas the
 * dispatcher validates with become the request and response schemas.
 */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

type JsonObject = Record<string, unknown>;

const schemaOf = (schema: v.GenericSchema): JsonObject => {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
  }) as JsonObject;
  return rest;
};

const problemRef = { $ref: '#/components/schemas/Problem' };
const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: problemRef } },
});

export function buildOpenApi(routes: readonly Route[], info: OpenApiInfo): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const operation: JsonObject = {
      summary: route.summary,
      description: `Who may call: ${route.guard.description}.`,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: [...pathParameters(route), ...queryParameters(route)],
      responses: responsesOf(route),
    };
    if (route.guard.security === 'bearer') operation['security'] = [{ bearerAuth: [] }];
    if (route.guard.security === 'edgeToken') operation['security'] = [{ edgeToken: [] }];
    if (route.guard.security === 'serviceToken') operation['security'] = [{ serviceToken: [] }];
    if (route.body) {
      operation['requestBody'] = { required: true, content: { 'application/json': { schema: schemaOf(route.body) } } };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        edgeToken: { type: 'http', scheme: 'bearer', description: 'Edge API token of an on-site box' },
        serviceToken: { type: 'http', scheme: 'bearer', description: 'Credential of an internal service (challenges personalization)' },
      },
      schemas: {
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

function pathParameters(route: Route): JsonObject[] {
  const names = [...route.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] ?? '');
  const properties = route.params ? ((schemaOf(route.params)['properties'] ?? {}) as Record<string, JsonObject>) : {};
  return names.map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
}

function queryParameters(route: Route): JsonObject[] {
  if (!route.query) return [];
  const json = schemaOf(route.query);
  const properties = (json['properties'] ?? {}) as Record<string, JsonObject>;
  const required = new Set((json['required'] ?? []) as string[]);
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
function responsesOf(route: Route): JsonObject {
  const responses: Record<string, JsonObject> = {};
  const success = route.status ?? 200;
  responses[String(success)] = {
    description: SUCCESS_DESCRIPTIONS[success] ?? 'Success',
    ...(route.response && success !== 204
      ? { content: { [route.responseType ?? 'application/json']: { schema: schemaOf(route.response) } } }
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
    responses['415'] = problemResponse('Body is not JSON');
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
      ...(!isError && declared.schema && status !== '204'
        ? { content: { 'application/json': { schema: schemaOf(declared.schema) } } }
        : {}),
      ...(isError && declared.schema ? { content: { 'application/json': { schema: schemaOf(declared.schema) } } } : {}),
      ...(Object.keys(headers).length ? { headers } : {}),
    };
  }
  return responses;
}
