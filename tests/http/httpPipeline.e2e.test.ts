import * as v from 'valibot';
import { publicAccess } from '../../shared/http/guards';
import { InvalidError } from '../../shared/errors/domainErrors';
import { HttpProblem } from '../../shared/http/problem';
import { defineRoute, json, noContent } from '../../shared/http/route';
import { httpGroup } from '../../shared/host/definition';
import { getSql } from '../../shared/db/client';
import { anyOf, readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';

const Member = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  tags: v.array(v.pipe(v.string(), v.maxLength(5))),
  age: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

const received: unknown[] = [];
const Batch = v.object({ items: v.array(v.object({ n: v.number() })) });

const routes = [
  defineRoute({
    method: 'POST',
    path: '/pipeline/members',
    summary: 'validated body',
    guard: publicAccess,
    body: Member,
    maxBodyBytes: 2_048,
    handle: ({ body }) => {
      received.push(body);
      return Promise.resolve(json(body, 201));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/pipeline/members/{id}',
    summary: 'validated params and query',
    guard: publicAccess,
    params: v.object({ id: v.pipe(v.string(), v.regex(/^\d+$/, 'must be digits')) }),
    query: v.object({ limit: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a number'))) }),
    handle: ({ params, query }) => Promise.resolve(json({ params, query })),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/pipeline/members/{id}',
    summary: 'delete',
    guard: publicAccess,
    handle: () => Promise.resolve(noContent()),
  }),
  defineRoute({
    method: 'GET',
    path: '/pipeline/members/special',
    summary: 'literal beats parameter',
    guard: publicAccess,
    handle: () => Promise.resolve(json({ special: true })),
  }),
  defineRoute({
    method: 'GET',
    path: '/pipeline/lookup/{key}',
    summary: 'passes the raw parameter to PostgreSQL',
    guard: publicAccess,
    handle: async ({ params }) => json(await getSql()`select ${params['key'] ?? ''}::text as key`),
  }),
  defineRoute({
    method: 'POST',
    path: '/pipeline/batch',
    summary: 'a list body',
    guard: publicAccess,
    body: Batch,
    handle: ({ body }) => Promise.resolve(json({ count: body.items.length })),
  }),
  defineRoute({
    method: 'GET',
    path: '/pipeline/explode',
    summary: 'unexpected error',
    guard: publicAccess,
    handle: () => Promise.reject(new Error('secret internals: password=hunter2 at /srv/app.js:12')),
  }),
  // An area refusing a field of the value it was given: `slot` of the query, `note` of the body.
  defineRoute({
    method: 'GET',
    path: '/pipeline/slots/{id}',
    summary: 'area refuses a query field',
    guard: publicAccess,
    params: v.object({ id: v.string() }),
    query: v.object({ slot: v.optional(v.string()) }),
    handle: () => Promise.reject(new InvalidError('No such slot.', [{ path: 'slot', message: 'is taken' }])),
  }),
  defineRoute({
    method: 'POST',
    path: '/pipeline/slots/{id}',
    summary: 'area refuses a body field, or a query field the route names',
    guard: publicAccess,
    params: v.object({ id: v.string() }),
    query: v.object({ slot: v.optional(v.string()) }),
    body: v.object({ note: v.string() }),
    handle: ({ params }) =>
      Promise.reject(new InvalidError('Refused.', [{ path: params.id === 'whole' ? '' : 'note', message: 'is refused' }])),
  }),
  defineRoute({
    method: 'PUT',
    path: '/pipeline/slots/{id}',
    summary: 'area refuses a query field on a route with a body',
    guard: publicAccess,
    query: v.object({ slot: v.optional(v.string()) }),
    body: v.object({ note: v.string() }),
    fieldErrorsIn: 'query',
    handle: () => Promise.reject(new InvalidError('No such slot.', [{ path: 'slot', message: 'is taken' }])),
  }),
  defineRoute({
    method: 'GET',
    path: '/pipeline/teapot',
    summary: 'handler-thrown problem',
    guard: publicAccess,
    handle: () => Promise.reject(new HttpProblem(409, 'Conflict', 'already there')),
  }),
  defineRoute({
    method: 'POST',
    path: '/pipeline/duplicate',
    summary: 'unique violation from PostgreSQL',
    guard: publicAccess,
    handle: async () => {
      await getSql().begin(async (tx) => {
        await tx`create temporary table dup (id int primary key) on commit drop`;
        await tx`insert into dup values (1), (1)`;
      });
      return noContent();
    },
  }),
];

describe('HTTP conventions', () => {
  const functionLines: { level: string; line: string }[] = [];
  const host = useTestHost([httpGroup('pipeline', 'pipeline', routes), httpGroup('notFound', '', [])], {
    functionLog: (level, line) => functionLines.push({ level, line }),
  });
  beforeEach(() => {
    received.length = 0;
  });

  async function problem(response: Response, status: number): Promise<ProblemJson> {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const body = await readJson<ProblemJson>(response);
    expect(body).toMatchObject({ type: 'about:blank', status, requestId: response.headers.get('x-request-id') });
    return body;
  }

  it('passes a valid body to the handler', async () => {
    const response = await host.request('POST', '/pipeline/members', { json: { name: 'Ann', tags: ['a'] } });
    expect(response.status).toBe(201);
    expect(received).toEqual([{ name: 'Ann', tags: ['a'] }]);
  });

  it('400 names every failing field path and never calls the handler', async () => {
    const response = await host.request('POST', '/pipeline/members', { json: { name: '', tags: ['ok', 'toolong'], age: -1 } });
    const body = await problem(response, 400);
    expect(body.errors?.map((error) => error.path).sort()).toEqual(['body.age', 'body.name', 'body.tags.1']);
    expect(received).toEqual([]);
  });

  it('400 for malformed JSON', async () => {
    const response = await host.request('POST', '/pipeline/members', {
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect((await problem(response, 400)).detail).toMatch(/not valid JSON/);
  });

  it('400 for an empty body where one is required', async () => {
    const response = await host.request('POST', '/pipeline/members', { body: '', headers: { 'content-type': 'application/json' } });
    await problem(response, 400);
  });

  it('415 for a body that is not JSON', async () => {
    const response = await host.request('POST', '/pipeline/members', {
      body: 'name=Ann',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await problem(response, 415);
    expect(received).toEqual([]);
  });

  it('413 for a body over the limit', async () => {
    const response = await host.request('POST', '/pipeline/members', { json: { name: 'x'.repeat(5_000), tags: [] } });
    await problem(response, 413);
    expect(received).toEqual([]);
  });

  it('400 names invalid path and query parameters', async () => {
    const body = await problem(await host.request('GET', '/pipeline/members/abc?limit=ten'), 400);
    expect(body.errors?.map((error) => error.path).sort()).toEqual(['params.id', 'query.limit']);
  });

  it("prefixes an area's field errors with the input the area's value came from", async () => {
    const fromQuery = await problem(await host.request('GET', '/pipeline/slots/1?slot=a'), 400);
    expect(fromQuery.errors).toEqual([{ path: 'query.slot', message: 'is taken' }]);
    const fromBody = await problem(await host.request('POST', '/pipeline/slots/1?slot=a', { json: { note: 'n' } }), 400);
    expect(fromBody.errors).toEqual([{ path: 'body.note', message: 'is refused' }]);
    const wholeBody = await problem(await host.request('POST', '/pipeline/slots/whole', { json: { note: 'n' } }), 400);
    expect(wholeBody.errors).toEqual([{ path: 'body', message: 'is refused' }]);
    const named = await problem(await host.request('PUT', '/pipeline/slots/1?slot=a', { json: { note: 'n' } }), 400);
    expect(named.errors).toEqual([{ path: 'query.slot', message: 'is taken' }]);
  });

  it('routes parameters and prefers literal segments', async () => {
    expect(await (await host.request('GET', '/pipeline/members/42?limit=5')).json()).toEqual({
      params: { id: '42' },
      query: { limit: '5' },
    });
    expect(await (await host.request('GET', '/pipeline/members/special')).json()).toEqual({ special: true });
  });

  it('404 for unknown routes, inside a group and outside every group', async () => {
    await problem(await host.request('GET', '/pipeline/nothing-here'), 404);
    await problem(await host.request('GET', '/no/such/thing'), 404);
  });

  it('405 with an Allow header for a known path and the wrong method', async () => {
    const response = await host.request('PUT', '/pipeline/members/42', { json: {} });
    await problem(response, 405);
    expect(response.headers.get('allow')).toBe('GET, DELETE');
  });

  it('500 for unexpected errors without anything internal', async () => {
    const response = await host.request('GET', '/pipeline/explode');
    const body = await problem(response, 500);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/hunter2|app\.js|secret|stack/);
    expect(body.detail).toContain(body.requestId);
    // The cause goes to the log, under the same request id, and only there.
    const logged = functionLines.filter((entry) => entry.line.includes('http_unhandled_error'));
    expect(logged).toHaveLength(1);
    expect(logged[0]?.level).toBe('error');
    expect(logged[0]?.line).toContain(body.requestId);
  });

  it('handler problems and unique violations become 4xx problems', async () => {
    expect((await problem(await host.request('GET', '/pipeline/teapot'), 409)).detail).toBe('already there');
    await problem(await host.request('POST', '/pipeline/duplicate'), 409);
  });

  it('echoes a well-formed incoming request id and replaces a malformed one', async () => {
    const kept = await host.request('DELETE', '/pipeline/members/1', { headers: { 'x-request-id': 'trace-abc-12345' } });
    expect(kept.status).toBe(204);
    expect(kept.headers.get('x-request-id')).toBe('trace-abc-12345');
    const replaced = await host.request('DELETE', '/pipeline/members/1', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists at most 100 field errors and says how many there were', async () => {
    const items = Array.from({ length: 500 }, () => ({}));
    const body = await problem(await host.request('POST', '/pipeline/batch', { json: { items } }), 400);
    expect(body.errors).toHaveLength(100);
    expect(body.errors?.[0]).toEqual({ path: 'body.items.0.n', message: anyOf(String) });
    expect(body.detail).toMatch(/first 100 of 500 errors are listed/);
  });

  it('stops at the first error of a large invalid body, so a small request cannot cause a huge report', async () => {
    const items = Array.from({ length: 100_000 }, () => ({}));
    const response = await host.request('POST', '/pipeline/batch', { json: { items } });
    const body = await problem(response, 400);
    expect(body.errors).toEqual([{ path: 'body.items.0.n', message: anyOf(String) }]);
  });

  it('accepts a large valid body', async () => {
    const items = Array.from({ length: 20_000 }, (_, n) => ({ n }));
    const response = await host.request('POST', '/pipeline/batch', { json: { items } });
    expect(await response.json()).toEqual({ count: 20_000 });
  });

  it('answers 400, not 500, when PostgreSQL refuses a value as a data exception', async () => {
    const body = await problem(await host.request('GET', '/pipeline/lookup/a%00b'), 400);
    expect(body.detail).toMatch(/cannot be stored/);
  });
});
