import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { eventHubFunction, httpGroup, timerFunction } from '../../shared/host/definition';
import { publicAccess } from '../../shared/http/guards';
import { defineRoute, json } from '../../shared/http/route';
import { createLogger } from '../../shared/log/logger';
import { startDevHost, type DevHost } from '../../development/devhost/host';

/**
 * The local host serves HTTP routes and runs non-HTTP functions through
 * POST /admin/functions/{name} with {"input": ...}, as the Core Tools do.
 */
describe('local host', () => {
  const table = `devhost_${randomUUID().replace(/-/g, '')}`;
  let host: DevHost;
  /** The functions' own log lines, captured so the expected failure is asserted instead of printed. */
  const functionLines: { level: string; line: string }[] = [];

  const definitions = [
    timerFunction('recordTick', { schedule: '0 */5 * * * *' }, async (_job, timer) => {
      await getSql()`insert into ${getSql()(table)} (source, payload) values ('timer', ${getSql().json({ isPastDue: timer.isPastDue })})`;
      return { ticked: true };
    }),
    eventHubFunction('recordEvents', { eventHubName: 'changes', connection: 'EVENT_HUB_CONNECTION' }, async (_job, messages) => {
      for (const message of messages) {
        if ((message as { fail?: boolean }).fail) throw new Error('poison message');
      }
      await getSql()`insert into ${getSql()(table)} ${getSql()(messages.map((message) => ({ source: 'event', payload: getSql().json(message as never) })))}`;
    }),
    httpGroup('hello', 'hello', [
      defineRoute({
        method: 'GET',
        path: '/hello/{name}',
        summary: 'greets',
        guard: publicAccess,
        handle: ({ params }) => Promise.resolve(json({ hello: params['name'] })),
      }),
    ]),
  ];

  beforeAll(async () => {
    await getSql()`create table ${getSql()(table)} (id serial primary key, source text not null, payload jsonb not null)`;
    host = await startDevHost(definitions, {
      port: 0,
      log: createLogger({ minLevel: 'error' }),
      setting: (name) => process.env[name],
      runTimers: false,
      functionLog: (level, line) => functionLines.push({ level, line }),
    });
  });
  afterAll(async () => {
    await host.close();
    await getSql()`drop table ${getSql()(table)}`;
  });

  const rows = () => getSql()<{ source: string; payload: unknown }[]>`select source, payload from ${getSql()(table)} order by id`;
  const request = (method: string, path: string, init: { json?: unknown; body?: string; headers?: Record<string, string> } = {}) =>
    fetch(host.url + path, {
      method,
      headers: init.json === undefined ? init.headers : { 'content-type': 'application/json' },
      body: init.json === undefined ? init.body : JSON.stringify(init.json),
    });
  const invoke = (name: string, body: unknown) => request('POST', `/admin/functions/${name}`, { json: body });

  it('serves HTTP functions with route parameters', async () => {
    const response = await request('GET', '/hello/Ann');
    expect(await response.json()).toEqual({ hello: 'Ann' });
  });

  it('invokes a timer function', async () => {
    const response = await invoke('recordTick', { input: '' });
    expect(response.status).toBe(202);
    expect(await rows()).toContainEqual({ source: 'timer', payload: { isPastDue: false } });
  });

  it('invokes an event function with a batch of events', async () => {
    const response = await invoke('recordEvents', { input: JSON.stringify([{ n: 1 }, { n: 2 }]) });
    expect(response.status).toBe(202);
    const events = (await rows()).filter((row) => row.source === 'event');
    expect(events.map((row) => row.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('reports a failing function as failed, without internals', async () => {
    const response = await invoke('recordEvents', { input: [{ fail: true }] });
    expect(response.status).toBe(500);
    const problem = (await response.json()) as { detail: string };
    expect(problem.detail).toMatch(/recordEvents failed/);
    expect(JSON.stringify(problem)).not.toMatch(/poison/);
    // The host log keeps the cause for the operator.
    const failure = functionLines.find((entry) => entry.level === 'error');
    expect(failure?.line).toContain('"event":"event_batch_failed"');
    expect(failure?.line).toContain('poison message');
  });

  it('404 for an unknown function, 400 for an HTTP function or a body that is not JSON, 405 for GET', async () => {
    const unknown = await invoke('nope', { input: '' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('application/problem+json');
    expect(unknown.headers.get('x-request-id')).toBe(((await unknown.json()) as { requestId: string }).requestId);
    expect((await invoke('hello', { input: '' })).status).toBe(400);
    expect(
      (await request('POST', '/admin/functions/recordTick', { body: '{oops', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await request('GET', '/admin/functions/recordTick')).status).toBe(405);
  });
});
