import { HttpRequest, InvocationContext, type LogHandler } from '@azure/functions';
import { LocalHttpRequest } from '../../development/devhost/localHttpRequest';
import { LocalInvocationContext } from '../../development/devhost/localInvocationContext';

// The local host's request and context must answer what the Functions library's objects (what the
// Azure worker hands a function) answer for the same request.

const url = new URL('http://127.0.0.1:7071/api/things/7?limit=5&tag=a&tag=b');
const incoming = {
  host: '127.0.0.1:7071',
  authorization: 'Bearer abc.def.ghi',
  'content-type': 'application/json',
  'x-ms-client-principal-name': 'someone',
  'set-cookie': ['a=1', 'b=2'],
};
const flat = { ...incoming, 'set-cookie': 'a=1, b=2' };

function both(method: string, body?: string) {
  const bytes = Buffer.from(body ?? '');
  const local = new LocalHttpRequest({ method, url, headers: incoming, params: { id: '7' }, body: bytes });
  const library = new HttpRequest({
    method,
    url: url.href,
    headers: flat,
    params: { id: '7' },
    ...(bytes.length ? { body: { bytes } } : {}),
  });
  return { local, library };
}

describe('LocalHttpRequest', () => {
  it('answers method, url, headers, query, params and user as the library does', () => {
    const { local, library } = both('GET');
    expect(local.method).toBe(library.method);
    expect(local.url).toBe(library.url);
    expect([...local.headers]).toEqual([...library.headers]);
    expect(local.headers.get('Authorization')).toBe(library.headers.get('authorization'));
    expect([...local.query]).toEqual([...library.query]);
    expect(local.query.getAll('tag')).toEqual(['a', 'b']);
    expect(local.params).toEqual(library.params);
    expect(local.user).toEqual(library.user);
    expect(local.bodyUsed).toBe(false);
  });

  it('reads a body as the library does, once', async () => {
    const { local, library } = both('POST', '{"name":"x"}');
    expect(local.bodyUsed).toBe(false);
    expect(await local.clone().json()).toEqual({ name: 'x' });
    expect(new Uint8Array(await local.arrayBuffer())).toEqual(new Uint8Array(await library.arrayBuffer()));
    expect(local.bodyUsed).toBe(true);
    await expect(local.text()).rejects.toThrow(/unusable|already/i);
  });

  it('has an empty body for a GET, as the library', async () => {
    const { local, library } = both('GET');
    expect(await local.text()).toBe(await library.text());
    expect(local.body).toBe(library.body);
  });
});

describe('LocalInvocationContext', () => {
  it('has the library defaults and hands every log call to the handler with its level', () => {
    const calls: unknown[][] = [];
    const logHandler: LogHandler = (level, ...args) => calls.push([level, ...args]);
    const local = new LocalInvocationContext({ invocationId: 'i-1', functionName: 'f', logHandler });
    const library = new InvocationContext({ invocationId: 'i-1', functionName: 'f', logHandler });
    for (const context of [local, library]) {
      context.log('a');
      context.trace('b');
      context.debug('c');
      context.info('d', 1);
      context.warn('e');
      context.error('f');
    }
    expect(calls.slice(0, 6)).toEqual(calls.slice(6));
    expect(local.options).toEqual(library.options);
    expect([local.invocationId, local.functionName, local.triggerMetadata, local.retryContext]).toEqual([
      library.invocationId,
      library.functionName,
      library.triggerMetadata,
      library.retryContext,
    ]);
    local.extraOutputs.set('out', 1);
    local.extraInputs.set({ name: 'in', type: 'blob' }, 2);
    expect(local.extraOutputs.get('out')).toBe(1);
    expect(local.extraInputs.get('in')).toBe(2);
  });
});
