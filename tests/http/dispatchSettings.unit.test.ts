import { HttpRequest, InvocationContext, type HttpResponseInit } from '@azure/functions';
import * as v from 'valibot';
import { overrideSettings } from '../../shared/config/settings';
import { createDispatcher } from '../../shared/http/dispatch';
import { authenticatedUser, publicAccess } from '../../shared/http/guards';
import { defineRoute, json } from '../../shared/http/route';

const routes = [
  defineRoute({
    method: 'GET',
    path: '/probe/me',
    summary: 'a guarded route: the guard reads the auth settings',
    guard: authenticatedUser,
    handle: ({ caller }) => Promise.resolve(json({ userId: caller.userId })),
  }),
  defineRoute({
    method: 'POST',
    path: '/probe/echo',
    summary: 'a body route: the body limit is a setting',
    guard: publicAccess,
    body: v.object({ name: v.string() }),
    handle: ({ body }) => Promise.resolve(json(body)),
  }),
];

const validEnv = { AUTH_JWT_SECRET: 'x'.repeat(40), AUTH_ISSUER: 'local-dev', AUTH_AUDIENCE: 'api', LOG_LEVEL: 'info' };

describe('the dispatcher with an invalid setting (AUTH_ISSUER=" ")', () => {
  const restores: (() => void)[] = [];
  const useSettings = (values: Record<string, string>) => restores.push(overrideSettings(values));
  const restoreAll = () =>
    restores
      .splice(0)
      .reverse()
      .forEach((restore) => restore());
  const logged: { level: string; line: string }[] = [];
  const dispatch = createDispatcher(routes);
  const call = (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) =>
    dispatch(
      new HttpRequest({
        method,
        url: `http://127.0.0.1:7071${path}`,
        headers: init.headers,
        body: init.body ? { string: init.body } : undefined,
      }),
      new InvocationContext({
        invocationId: 'test',
        functionName: 'probe',
        logHandler: (level, ...args) => logged.push({ level, line: String(args[0]) }),
      }),
    ) as Promise<HttpResponseInit>;

  beforeEach(() => {
    logged.length = 0;
    restoreAll();
    useSettings({ ...validEnv, AUTH_ISSUER: ' ' });
  });
  afterAll(restoreAll);

  const problemOf = (response: HttpResponseInit) =>
    JSON.parse(typeof response.body === 'string' ? response.body : '') as { status: number; detail: string; requestId: string };

  it.each([
    ['a guarded route', 'GET', '/probe/me', { headers: { authorization: 'Bearer abc.def.ghi' } }],
    ['a route with a body', 'POST', '/probe/echo', { headers: { 'content-type': 'application/json' }, body: '{"name":"Ann"}' }],
  ])('answers %s with a 500 problem+json carrying the request id, and logs the setting by name', async (_label, method, path, init) => {
    const response = await call(method, path, init);
    expect(response.status).toBe(500);
    expect((response.headers as Record<string, string>)['content-type']).toBe('application/problem+json');
    const problem = problemOf(response);
    expect(problem.status).toBe(500);
    expect(problem.detail).toContain(problem.requestId);
    const errors = logged.filter((entry) => entry.level === 'error').map((entry) => JSON.parse(entry.line) as Record<string, unknown>);
    expect(errors).toEqual([expect.objectContaining({ event: 'http_settings_invalid', settings: ['AUTH_ISSUER'] })]);
  });

  it('still answers 404 for an unknown path (nothing there reads a setting)', async () => {
    expect((await call('GET', '/probe/nothing')).status).toBe(404);
  });

  it('answers normally once the setting is fixed', async () => {
    useSettings({ AUTH_ISSUER: 'local-dev' });
    const response = await call('POST', '/probe/echo', { headers: { 'content-type': 'application/json' }, body: '{"name":"Ann"}' });
    expect(response.status).toBe(200);
  });
});
