import { ApiError } from '../../../web/kit/apiError';
import { jsonOf, request, type Fetcher } from '../../../web/kit/request';

const answering =
  (response: Response): Fetcher =>
  () =>
    Promise.resolve(response);
/** The ApiError a call rejects with (a test failure when it resolves). */
const failure = (call: Promise<Response>): Promise<ApiError> =>
  call.then(
    () => {
      throw new Error('the call resolved');
    },
    (error: unknown) => {
      if (!(error instanceof ApiError)) throw error;
      return error;
    },
  );
const problem = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json' } });

describe('an API call from either front end', () => {
  it('sends a body as JSON, asks for JSON unless told otherwise, and caches nothing', async () => {
    const seen: RequestInit[] = [];
    const fetcher: Fetcher = (_path, init) => {
      seen.push(init);
      return Promise.resolve(new Response(null, { status: 204 }));
    };
    await request(fetcher, 'PUT', '/api/x', { body: { a: 1 }, headers: { authorization: 'Bearer t' } });
    await request(fetcher, 'GET', '/api/y', { accept: 'text/csv' });
    expect(seen).toEqual([
      {
        method: 'PUT',
        headers: { accept: 'application/json', authorization: 'Bearer t', 'content-type': 'application/json' },
        body: '{"a":1}',
        cache: 'no-store',
      },
      { method: 'GET', headers: { accept: 'text/csv' }, body: undefined, cache: 'no-store' },
    ]);
  });

  it('reads the JSON of an answer, and nothing of a 204', async () => {
    expect(await jsonOf(new Response('{"ok":true}', { status: 200 }))).toEqual({ ok: true });
    expect(await jsonOf(new Response(null, { status: 204 }))).toBeUndefined();
  });

  it('turns a problem+json into an ApiError with its detail, code, request id and the fields a 400 names', async () => {
    const body = {
      title: 'Bad Request',
      detail: 'body.dnd.from: required',
      code: 'validation',
      requestId: 'r-1',
      errors: [{ path: 'body.dnd.from', message: 'required' }, { path: 7 }, null],
    };
    const error = await failure(request(answering(problem(400, body)), 'GET', '/api/x'));
    expect({ ...error, message: error.message }).toEqual({
      name: 'ApiError',
      status: 400,
      title: 'Bad Request',
      detail: 'body.dnd.from: required',
      code: 'validation',
      requestId: 'r-1',
      fieldErrors: [{ path: 'body.dnd.from', message: 'required' }],
      message: 'body.dnd.from: required',
    });
  });

  it('tells the status alone when the body is no problem+json, and a network failure as status 0', async () => {
    const plain = await failure(request(answering(new Response('<html>', { status: 502, statusText: 'Bad Gateway' })), 'GET', '/x'));
    expect([plain.status, plain.title, plain.detail, plain.fieldErrors]).toEqual([502, 'Bad Gateway', undefined, []]);
    const down = await failure(request(() => Promise.reject(new TypeError('failed to fetch')), 'GET', '/x'));
    expect([down.status, down.code, down.message]).toEqual([0, 'network', 'Network error']);
  });
});
