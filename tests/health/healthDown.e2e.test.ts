import type { HealthReport } from '../../shared/health/health';
import { readJson } from '../support/http';
import { closeSql } from '../../shared/db/client';
import { overrideSettings } from '../../shared/config/settings';
import { freePort } from '../../development/local/net';
import { useTestHost } from '../support/testHost';

/** With nothing listening where DATABASE_URL points (the server is stopped), /healthz says so. */
describe('GET /healthz with the database stopped', () => {
  let restoreSettings = () => {};

  beforeAll(async () => {
    await closeSql();
    restoreSettings = overrideSettings({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/stopped` });
  });
  const host = useTestHost();
  afterAll(async () => {
    await closeSql();
    restoreSettings();
  });

  it('answers 503 naming the database as the failing component', async () => {
    const response = await host.request('GET', '/healthz');
    expect(response.status).toBe(503);
    const body = await readJson<HealthReport>(response);
    expect(body.status).toBe('down');
    expect(body.failing).toEqual(['database']);
    expect(body.components['database']?.status).toBe('down');
    expect(body.components['storage']?.status).toBe('up');
    // The connection error (internal host and port) goes to the log, not to anonymous callers.
    expect(body.components['database']?.detail).toBeUndefined();
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });
});
