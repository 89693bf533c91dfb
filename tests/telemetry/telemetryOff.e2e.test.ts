import { startTelemetry } from '../../shared/telemetry/startup';
import { telemetry } from '../../shared/telemetry/telemetry';
import { overrideSettings } from '../../shared/config/settings';
import { useTestHost } from '../support/testHost';

/** Without APPLICATIONINSIGHTS_CONNECTION_STRING nothing of OpenTelemetry loads and every request keeps its log line. */
describe('telemetry without a connection string', () => {
  // At info, so a request's http_request line would be there to see (the test runs log at warn).
  let restoreLogLevel: () => void = () => undefined;
  beforeAll(() => {
    restoreLogLevel = overrideSettings({ LOG_LEVEL: 'info' });
  });
  afterAll(() => restoreLogLevel());
  const host = useTestHost();

  it('installs no backend, and each request is logged as the http_request line with its request id', async () => {
    expect(await startTelemetry({ connectionString: undefined, secrets: [], serviceName: 'test' })).toBeUndefined();
    expect(telemetry()).toBeUndefined();
    const response = await host.request('GET', '/healthz');
    const requestId = response.headers.get('x-request-id') ?? '';
    const lines = host.logLines
      .map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)) as Record<string, unknown>)
      .filter((line) => line['event'] === 'http_request' && line['requestId'] === requestId);
    expect(lines).toEqual([expect.objectContaining({ method: 'GET', path: '/healthz', status: response.status })]);
  });
});
