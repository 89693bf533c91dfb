import { InvocationContext, type EventHubHandler } from '@azure/functions';
import { BusyError, InvalidError } from '../../shared/errors/domainErrors';
import { eventHubFunction, isRetryableJobError } from '../../shared/host/definition';

describe('a job that meets a busy pool is retried, not dropped', () => {
  it('isRetryableJobError: BusyError and infrastructure errors yes, other domain errors no', () => {
    expect(isRetryableJobError(new BusyError('every connection is busy', 2, { code: 'pool_busy' }))).toBe(true);
    expect(isRetryableJobError(Object.assign(new Error('gone'), { code: 'CONNECTION_CLOSED' }))).toBe(true);
    expect(isRetryableJobError(new InvalidError('bad batch'))).toBe(false);
  });

  it('an event batch failing with pool_busy is rethrown (the host runs it again before any checkpoint)', async () => {
    const definition = eventHubFunction('probe', { connection: 'X', eventHubName: 'hub' }, () =>
      Promise.reject(new BusyError('Every user database connection is busy; try again shortly.', 2, { code: 'pool_busy' })),
    );
    if (definition.kind !== 'eventHub') throw new Error('not an eventHub definition');
    const handler = definition.options.handler as EventHubHandler;
    const context = new InvocationContext({ invocationId: 'i-1', functionName: 'probe', logHandler: () => undefined });
    await expect(handler([{ a: 1 }], context)).rejects.toMatchObject({ code: 'pool_busy' });
  });

  it('a batch failing with another domain error is dropped: not rethrown, and logged once at error level as dropped', async () => {
    const definition = eventHubFunction('probe', { connection: 'X', eventHubName: 'hub' }, () =>
      Promise.reject(new InvalidError('poison')),
    );
    if (definition.kind !== 'eventHub') throw new Error('not an eventHub definition');
    const handler = definition.options.handler as EventHubHandler;
    const lines: { level: string; record: Record<string, unknown> }[] = [];
    const context = new InvocationContext({
      invocationId: 'i-2',
      functionName: 'probe',
      logHandler: (level, ...args) => lines.push({ level, record: JSON.parse(String(args[0])) as Record<string, unknown> }),
    });
    await expect(handler([{ a: 1 }, { a: 2 }], context)).resolves.toBeUndefined();
    const failures = lines.filter((line) => line.level === 'error');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.record).toMatchObject({ event: 'event_batch_dropped', size: 2 });
    expect(lines.some((line) => line.record['event'] === 'event_batch_completed')).toBe(false);
  });
});
