import http from 'node:http';
import * as v from 'valibot';
import { noContent, defineRoute } from '../../shared/http/route';
import { authenticatedUser, publicAccess } from '../../shared/http/guards';
import { httpGroup } from '../../shared/host/definition';
import { probeList } from '../support/probeRoutes';
import { useTestHost, type TestHost } from '../support/testHost';

const deleted: string[] = [];
const routes = [
  probeList,
  defineRoute({
    method: 'DELETE',
    path: '/probe/items',
    summary: 'clear everything',
    guard: publicAccess,
    handle: () => {
      deleted.push('*');
      return Promise.resolve(noContent());
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/probe/items/{id}',
    summary: 'delete one',
    guard: publicAccess,
    handle: ({ params }) => {
      deleted.push(params['id'] ?? '');
      return Promise.resolve(noContent());
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/probe/named',
    summary: 'takes an object',
    guard: publicAccess,
    body: v.object({ name: v.string() }),
    handle: () => Promise.resolve(noContent()),
  }),
  defineRoute({
    method: 'POST',
    path: '/probe/items/{id}/read',
    summary: 'takes no body',
    guard: authenticatedUser,
    handle: () => Promise.resolve(noContent()),
  }),
];

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http sends the path as given; fetch() would resolve dot segments before sending. */
function raw(host: TestHost, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  const { port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('hostile requests to an endpoint group', () => {
  const host = useTestHost([httpGroup('probe', 'probe', routes)]);
  beforeEach(() => deleted.splice(0));

  it.each(['TRACE', 'PROPFIND', 'PATCH', 'OPTIONS'])('405 with Allow for %s', async (method) => {
    const answer = await raw(host, method, '/probe/items');
    expect(answer.status).toBe(405);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers['allow']).toBe('GET, DELETE');
  });

  it('answers HEAD like GET without a body', async () => {
    const answer = await raw(host, 'HEAD', '/probe/items');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toBe('');
    expect((await raw(host, 'HEAD', '/probe/nothing')).status).toBe(404);
  });

  it.each([
    '/probe/items/',
    '/probe/items/%2e',
    '/probe/items/%2E%2e',
    '/probe/items/.',
    '/probe/items/..',
    '/probe/x/%2e%2e/items',
    '/probe/items/%2e/',
  ])('DELETE %s is 404 and deletes nothing', async (path) => {
    const answer = await raw(host, 'DELETE', path);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(deleted).toEqual([]);
  });

  it('still deletes an item whose id merely contains dots', async () => {
    expect((await raw(host, 'DELETE', '/probe/items/a.b')).status).toBe(204);
    expect((await raw(host, 'DELETE', '/probe/items/...')).status).toBe(204);
    expect(deleted).toEqual(['a.b', '...']);
  });

  it('refuses a body on a route that takes none, before the credentials are checked', async () => {
    const sized = await raw(host, 'POST', '/probe/items/1/read', { 'content-type': 'application/json' }, '{"a":1}');
    expect(sized.status).toBe(400);
    expect(JSON.parse(sized.body)).toMatchObject({ errors: [{ path: 'body' }] });
    const chunked = await raw(host, 'POST', '/probe/items/1/read', { 'transfer-encoding': 'chunked' }, 'x');
    expect(chunked.status).toBe(400);
    // Without a body the guard decides as before.
    expect((await raw(host, 'POST', '/probe/items/1/read')).status).toBe(401);
  });

  it('names a wrong-typed field without quoting a huge value back', async () => {
    const huge = JSON.stringify('\u00e9'.repeat(50_000));
    const answer = await raw(host, 'POST', '/probe/named', { 'content-type': 'application/json' }, huge);
    expect(answer.status).toBe(400);
    const problem = JSON.parse(answer.body) as { errors: { path: string; message: string }[] };
    expect(problem.errors).toEqual([
      { path: 'body', message: expect.stringMatching(/^Invalid type: Expected Object but received .{1,200}$/su) as unknown },
    ]);
    expect(answer.body.length).toBeLessThan(2_000);
  });

  it('refuses numbers JSON.parse reads as Infinity anywhere in a body, naming each field', async () => {
    const post = (body: string) => raw(host, 'POST', '/probe/named', { 'content-type': 'application/json' }, body);
    const answer = await post('{"name":"a","extra":{"n":1e999,"list":[1,-1E400]},"fine":1.7976931348623157e308}');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    const { errors } = JSON.parse(answer.body) as { errors: unknown[] };
    expect(errors).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        { path: 'body.extra.n', message: 'must be a finite number' },
        { path: 'body.extra.list.1', message: 'must be a finite number' },
      ]),
    );
    expect((await post('{"name":"a","big":1e308,"small":-5e-324}')).status).toBe(204);
  });

  it('refuses strings and keys that are not well-formed Unicode anywhere in a body, however deep', async () => {
    const post = (body: string) => raw(host, 'POST', '/probe/named', { 'content-type': 'application/json' }, body);
    const field = await post('{"name":"a\\ud800","extra":{"x\\udc00y":1,"list":["ok","\\udbff"]}}');
    expect(field.status).toBe(400);
    const message = 'must be well-formed Unicode (no lone surrogates)';
    expect(JSON.parse(field.body)).toMatchObject({
      errors: expect.arrayContaining([
        { path: 'body.name', message },
        { path: 'body.extra', message },
        { path: 'body.extra.list.1', message },
      ]) as unknown,
    });
    const nul = await post('{"name":"a","note":"b\\u0000c"}');
    expect(JSON.parse(nul.body)).toMatchObject({
      status: 400,
      errors: [{ path: 'body.note', message: 'must not contain NUL characters' }],
    });
    // A pair is well-formed; so is the escaped replacement character.
    expect((await post('{"name":"\\ud83d\\ude00 \\ufffd"}')).status).toBe(204);
    const deep = await post('{"name":"a","deep":' + '['.repeat(50_000) + '"\\ud800"' + ']'.repeat(50_000) + '}');
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body)).toMatchObject({ errors: [{ path: expect.stringMatching(/^body\.deep(\.0)+$/) as unknown, message }] });
  });
});
