import { planIngestWorker, stepOutputs } from '../../ops/ingestWorkerPlan';

describe('staging ingest worker plan', () => {
  it.each([
    [undefined, undefined],
    ['', '3'],
    ['  ', undefined],
  ])('enabled=%p (unset) keeps the worker as it is: not declared, not removed', (enabled, replicas) => {
    const plan = planIngestWorker(enabled, replicas);
    expect(plan).toEqual({ action: 'keep', reason: 'STAGING_INGEST_ENABLED is not set: the ingest worker is left as it is.' });
    expect(stepOutputs(plan).split('\n')).toEqual([
      'action=keep',
      'enabled=false',
      'replicas=1',
      'reason=STAGING_INGEST_ENABLED is not set: the ingest worker is left as it is.',
    ]);
  });

  it.each([
    ['false', '2'],
    ['FALSE', undefined],
  ])('enabled=%p stops and removes the worker, whatever the replicas say', (enabled, replicas) => {
    const plan = planIngestWorker(enabled, replicas);
    expect(plan).toEqual({ action: 'stop' });
    expect(stepOutputs(plan)).toBe('action=stop\nenabled=false\nreplicas=1');
  });

  it('starts one replica by default and takes STAGING_INGEST_REPLICAS up to 8', () => {
    expect(planIngestWorker('true', undefined)).toEqual({ action: 'start', replicas: 1 });
    expect(planIngestWorker(' True ', ' ')).toEqual({ action: 'start', replicas: 1 });
    expect(stepOutputs(planIngestWorker('true', '3'))).toBe('action=start\nenabled=true\nreplicas=3');
    expect(planIngestWorker('true', '8')).toEqual({ action: 'start', replicas: 8 });
  });

  it.each([
    ['yes', '1', /STAGING_INGEST_ENABLED must be true or false, not "yes"/],
    ['true', '0', /STAGING_INGEST_REPLICAS must be a whole number from 1 to 8, not "0"/],
    ['true', 'two', /STAGING_INGEST_REPLICAS/],
    ['true', '9', /STAGING_INGEST_REPLICAS/],
    ['true', '1.5', /STAGING_INGEST_REPLICAS/],
  ])('rejects enabled=%p replicas=%p', (enabled, replicas, message) => {
    expect(() => planIngestWorker(enabled, replicas)).toThrow(message);
  });
});
