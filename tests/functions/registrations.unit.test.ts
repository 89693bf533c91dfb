import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import { DECLARATIONS, DECLARED_BY_AREA, type AreaName } from '../../functions/declarations';
import { functionDefinitions } from '../../functions/definitions';
import { areaModules, registrations } from '../../functions/registrations';
import { declareGroup, declareTimer } from '../../shared/host/bindings';
import { deferred } from '../../shared/host/deferred';
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
 * What the host sees: functions/registrations.ts (what the deployed app registers, each area loaded
 * on first use) and functions/definitions.ts (every area loaded, what the local host serves and the
 * tests read), both from the one list of functions/declarations.ts.
 */
describe('the registrations declared up front', () => {
  it('register every declared function once, in order, with its declared trigger, binding options and retry policy', () => {
    const declared = DECLARATIONS.map(({ declaration }) => ({
      kind: declaration.kind,
      name: declaration.name,
      options: declaration.options,
    }));
    expect(registrations.map(binding)).toEqual(declared);
    expect(new Set(declared.map(({ name }) => name)).size).toBe(declared.length);
  });

  it('are what each area defines: every declared function, built from its declaration, and no function undeclared', () => {
    for (const [area, declarations] of Object.entries(DECLARED_BY_AREA) as [AreaName, readonly { name: string }[]][]) {
      const defined = areaModules[area]();
      expect(defined.map((definition) => definition.name)).toEqual(declarations.map(({ name }) => name));
    }
  });

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

  it("load an area's module on the first invocation of one of its functions, not before, and once", async () => {
    let loads = 0;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('../../functions/notFound', () => {
        loads += 1;
        return jest.requireActual<typeof import('../../functions/notFound')>('../../functions/notFound');
      });
      const { registrations: fresh } = await import('../../functions/registrations');
      const catchAll = fresh.find((registration) => registration.name === 'notFound');
      if (catchAll?.kind !== 'http') throw new Error('no notFound function');
      expect(loads).toBe(0);
      const first = (await catchAll.options.handler(request('/nowhere'), context())) as HttpResponseInit;
      await catchAll.options.handler(request('/nowhere'), context());
      expect(loads).toBe(1);
      expect(first.status).toBe(404);
    });
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
