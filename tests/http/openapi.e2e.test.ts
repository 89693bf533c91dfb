import { functionDefinitions } from '../../functions/definitions';
import { readJson } from '../support/http';
import { inlineSchemaRefs, type OpenApiDocument } from '../support/openApiDocument';
import { validateOpenApi } from '../support/openApiValidation';
import { useTestHost } from '../support/testHost';

describe('GET /api/openapi.json', () => {
  /** The document with the named schemas in place, to read request bodies. */
  let bodies: OpenApiDocument;
  let document: {
    openapi: string;
    paths: Record<
      string,
      Record<string, { description: string; security?: unknown[]; requestBody?: { content: Record<string, { schema: unknown }> } }>
    >;
  };

  const host = useTestHost();
  beforeAll(async () => {
    const response = await host.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    document = await readJson<typeof document>(response);
    bodies = inlineSchemaRefs(document as unknown as OpenApiDocument);
  });

  const routes = functionDefinitions.flatMap((definition) => (definition.kind === 'http' ? definition.routes : []));

  it('is an OpenAPI 3.1 document describing every route of every HTTP function', () => {
    expect(document.openapi).toBe('3.1.0');
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('derives request bodies from the validation schemas and states who may call', () => {
    for (const route of routes) {
      const operation = document.paths[route.path]![route.method.toLowerCase()]!;
      expect(operation.description).toBe(`Who may call: ${route.guard.description}.`);
      const body = bodies.paths[route.path]![route.method.toLowerCase()]!.requestBody;
      const mediaType = route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
      if (route.body) expect(body?.content[mediaType]?.schema).toMatchObject({ type: 'object' });
      if (route.guard.security !== 'none') expect(operation.security).toBeDefined();
    }
  });

  it('is a valid OpenAPI 3.1 document (checked against the official schema)', async () => {
    expect(await validateOpenApi(document)).toEqual({ valid: true, version: '3.1', errors: null });
  });

  it('and the validator refuses a document that breaks the schema', async () => {
    const broken = { ...document, paths: { '/x': { get: { responses: { '200': { content: {} } } } } } };
    expect((await validateOpenApi(broken)).valid).toBe(false);
  });

  describe('answers besides 200', () => {
    const full = () => inlineSchemaRefs(document as unknown as OpenApiDocument);
    const responsesOf = (method: string, path: string) => full().paths[path]?.[method]?.responses ?? {};
    const problemSchema = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

    it('states what the pipeline answers for every route: 405, 503 with Retry-After, 400/401/403/413/415 where they apply', () => {
      for (const route of routes) {
        const responses = responsesOf(route.method.toLowerCase(), route.path);
        const statuses = Object.keys(responses);
        expect(statuses).toEqual(expect.arrayContaining(['405', '503']));
        // /healthz answers 503 with the health report itself, not as a request to come back later.
        if (route.path !== '/healthz') expect(responses['503']?.headers?.['Retry-After']?.schema).toEqual({ type: 'integer', minimum: 1 });
        expect(responses['405']?.headers?.['Allow']).toBeDefined();
        if (route.guard.security !== 'none') expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
        else expect(statuses).not.toContain('401');
        if (route.body) expect(statuses).toEqual(expect.arrayContaining(['400', '413', '415']));
        if (route.params || route.query || route.body) expect(responses['400']?.content).toEqual(problemSchema);
      }
    });

    it('uses the success status a route declares: 204 without a body, 201 next to 200', () => {
      const markRead = responsesOf('post', '/api/notifications/{id}/read');
      expect(Object.keys(markRead)).toContain('204');
      expect(Object.keys(markRead)).not.toContain('200');
      expect(markRead['204']?.content).toBeUndefined();
      expect(markRead['404']?.content).toEqual(problemSchema);

      const adopt = responsesOf('post', '/api/admin/clubs/adopt');
      expect(adopt['200']?.content?.['application/json']?.schema).toMatchObject({ required: ['club', 'created'] });
      expect(adopt['201']?.content?.['application/json']?.schema).toMatchObject({ required: ['club', 'created'] });
      expect(adopt['404']?.content).toEqual(problemSchema);
    });

    it('documents the busy answer of the club sync with its Retry-After', () => {
      const busy = responsesOf('post', '/api/edge/clubs/sync')['503'];
      expect(busy?.description).toMatch(/send the report again later/);
      expect(busy?.headers?.['Retry-After']?.description).toMatch(/60/);
    });

    it("describes /healthz's body for 200 and 503", () => {
      const health = responsesOf('get', '/healthz');
      for (const status of ['200', '503']) {
        expect(health[status]?.content?.['application/json']?.schema).toMatchObject({
          type: 'object',
          required: ['status', 'checkedAt', 'components', 'failing'],
          properties: { status: { enum: ['ok', 'down'] } },
        });
      }
    });
  });
});
