import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import { functionDefinitions } from '../../functions/definitions';
import { registrations } from '../../functions/registrations';
import { deferred, declareGroup, declareTimer } from '../../shared/host/deferred';
import type { FunctionDefinition } from '../../shared/host/definition';
import type { Route } from '../../shared/http/route';

/** What the host is told about a function: everything but the handler. */
const binding = (definition: FunctionDefinition) => {
  const { handler: _handler, ...options } = definition.options;
  return { kind: definition.kind, name: definition.name, options };
};
const routesOf = (definition: FunctionDefinition | undefined): readonly Route[] => (definition?.kind === 'http' ? definition.routes : []);
const signature = (route: Route) => `${route.method} ${route.path} ${route.summary}`;
const request = (url: string) => new HttpRequest({ method: 'GET', url: `http://localhost${url}` });
const context = () => new InvocationContext({ logHandler: () => undefined });

/**
 * functions/registrations.ts (what the deployed app registers, each area loaded on first use)
 * against functions/definitions.ts (every area loaded, what the local host serves and the tests read).
 */
describe('the registrations declared up front', () => {
  it('are the definitions: same functions in the same order, same triggers, routes and retry policies', () => {
    expect(registrations.map(binding)).toEqual(functionDefinitions.map(binding));
    for (const registration of registrations) {
      const definition = functionDefinitions.find((candidate) => candidate.name === registration.name);
      expect(routesOf(registration).map(signature)).toEqual(routesOf(definition).map(signature));
    }
  });

  it("answer through the area once loaded: the OpenAPI document lists every area's routes, the catch-all answers 404", async () => {
    const openapi = registrations.find((registration) => registration.name === 'openapi');
    if (openapi?.kind !== 'http') throw new Error('no openapi function');
    const document = (await openapi.options.handler(request('/api/openapi.json'), context())) as HttpResponseInit;
    expect(document.status).toBe(200);
    const body = document.jsonBody as { paths: Record<string, unknown> };
    // The document lists every group's routes, each area loaded for it.
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/api/notifications', '/api/challenges', '/api/me', '/healthz']));

    const notFound = registrations.find((registration) => registration.name === 'notFound');
    if (notFound?.kind !== 'http') throw new Error('no notFound function');
    const missing = (await notFound.options.handler(request('/nowhere'), context())) as HttpResponseInit;
    expect(missing.status).toBe(404);
    expect(missing.headers).toMatchObject({ 'content-type': 'application/problem+json' });
  });

  it('load the area only when first used, once', () => {
    const handler = jest.fn();
    const load = jest.fn(() => [{ kind: 'timer' as const, name: 'tick', options: { schedule: '%TICK%', handler } }]);
    const timer = deferred(declareTimer('tick', '%TICK%'), load);
    expect(load).not.toHaveBeenCalled();
    void timer.options.handler({} as never, context());
    void timer.options.handler({} as never, context());
    expect(load).toHaveBeenCalledTimes(1);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('fail the first use, naming the function, when the area does not define it as declared', () => {
    const timerOnly = () => [{ kind: 'timer' as const, name: 'tick', options: { schedule: '%TICK%', handler: () => undefined } }];
    const group = deferred(declareGroup('tick', 'api/tick'), timerOnly);
    const absent = deferred(declareGroup('tock', 'api/tock'), timerOnly);
    expect(() => routesOf(group)).toThrow('The area of tick defines no http function by that name');
    expect(() => routesOf(absent)).toThrow('The area of tock defines no http function by that name');
  });
});
