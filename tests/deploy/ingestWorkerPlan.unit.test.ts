import { planIngestWorker } from '../../scripts/ci/ingestWorkerPlan';

describe('staging ingest worker plan', () => {
  it.each([
    [undefined, undefined],
    ['', '3'],
    ['false', '2'],
    ['FALSE', undefined],
  ])('enabled=%p stops the worker and removes its containers', (enabled, replicas) => {
    expect(planIngestWorker(enabled, replicas)).toEqual({ action: 'stop', command: 'docker compose rm --stop --force ingest-worker' });
  });

  it('starts one replica by default and scales to the requested count', () => {
    expect(planIngestWorker('true', undefined)).toMatchObject({ action: 'start', replicas: 1 });
    expect(planIngestWorker('true', '3')).toMatchObject({
      action: 'start',
      replicas: 3,
      command: expect.stringContaining('--scale ingest-worker=3'),
    });
  });

  it.each([
    ['yes', '1', /STAGING_INGEST_ENABLED/],
    ['true', '0', /STAGING_INGEST_REPLICAS/],
    ['true', 'two', /STAGING_INGEST_REPLICAS/],
    ['true', '99', /STAGING_INGEST_REPLICAS/],
  ])('rejects enabled=%p replicas=%p', (enabled, replicas, message) => {
    expect(() => planIngestWorker(enabled, replicas)).toThrow(message);
  });
});
