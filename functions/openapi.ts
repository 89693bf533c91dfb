import { publicAccess } from '../shared/http/guards';
import { buildOpenApi } from '../shared/http/openapi';
import { defineRoute, json } from '../shared/http/route';
import { httpGroup, type FunctionDefinition } from '../shared/host/definition';

/** GET /api/openapi.json, generated from the routes of the given functions on first request. */
export function openApiFunction(documented: () => readonly FunctionDefinition[]): FunctionDefinition {
  let document: unknown;
  return httpGroup('openapi', 'api/openapi.json', [
    defineRoute({
      method: 'GET',
      path: '/api/openapi.json',
      summary: 'OpenAPI 3.1 description of every HTTP endpoint',
      guard: publicAccess,
      handle() {
        document ??= buildOpenApi(
          documented().flatMap((definition) => (definition.kind === 'http' ? definition.routes : [])),
          { title: 'Shooting club backend', version: '1.0.0' },
        );
        return Promise.resolve(json(document));
      },
    }),
  ]);
}
