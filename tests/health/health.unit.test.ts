import { evaluateHealth } from '../../shared/health/health';

describe('health evaluation', () => {
  it('is ok when every component is up or unknown, down when one is down', async () => {
    const up = { name: 'database', check: () => Promise.resolve({ status: 'up' as const }) };
    const unknown = { name: 'ingest', check: () => Promise.resolve({ status: 'unknown' as const }) };
    expect((await evaluateHealth([up, unknown])).status).toBe('ok');
    const failing = {
      name: 'storage',
      check: async () => Promise.reject(Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' })),
    };
    const report = await evaluateHealth([up, unknown, failing]);
    expect(report).toMatchObject({ status: 'down', failing: ['storage'] });
    expect(report.components['storage']).toMatchObject({ status: 'down', detail: 'ECONNREFUSED' });
  });

  it('counts a check that does not answer in time as down', async () => {
    const hanging = { name: 'database', check: () => new Promise<never>(() => undefined) };
    const report = await evaluateHealth([hanging], 20);
    expect(report.components['database']).toMatchObject({ status: 'down', detail: 'no answer within 20 ms' });
  });
});
