import { functionDefinitions } from '../../functions/definitions';
import { readJson } from '../support/http';
import { startTestHost, type TestHost } from '../support/testHost';

describe('GET /api/openapi.json', () => {
  let host: TestHost;
  let document: {
    openapi: string;
    paths: Record<
      string,
      Record<string, { description: string; security?: unknown[]; requestBody?: { content: Record<string, { schema: unknown }> } }>
    >;
  };

  beforeAll(async () => {
    host = await startTestHost();
    const response = await host.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    document = await readJson<typeof document>(response);
  });
  afterAll(() => host.close());

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
      if (route.body) expect(operation.requestBody?.content['application/json']?.schema).toMatchObject({ type: 'object' });
      if (route.guard.security !== 'none') expect(operation.security).toBeDefined();
    }
  });
});
