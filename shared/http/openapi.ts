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

function responsesOf(route: Route): JsonObject {
  const responses: JsonObject = {
    '2XX': {
      description: 'Success',
      ...(route.response ? { content: { 'application/json': { schema: schemaOf(route.response) } } } : {}),
    },
  };
  if (route.params || route.query || route.body) responses['400'] = problemResponse('Invalid input; `errors` names each failing field');
  if (route.guard.security !== 'none') {
    responses['401'] = problemResponse('Missing or invalid credentials');
    responses['403'] = problemResponse('Authenticated but not allowed');
  }
  if (route.body) {
    responses['413'] = problemResponse('Body too large');
    responses['415'] = problemResponse('Body is not JSON');
  }
  return responses;
}
