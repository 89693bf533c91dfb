import { timerFunction } from '../../shared/host/definition';
import { createLogger } from '../../shared/log/logger';
import { startDevHost, type DevHost } from '../../development/devhost/host';

/**
 * The Functions host leaves out a function whose app setting `AzureWebJobs.<name>.Disabled` is
 * true: its timer never fires and it cannot be invoked. The local host does the same, so a local
 * run with staging's settings runs exactly staging's functions (no heartbeat where the worker runs).
 */
describe('local host: AzureWebJobs.<function>.Disabled', () => {
  const ran: string[] = [];
  let host: DevHost;
  const settings: Record<string, string> = { 'AzureWebJobs.heartbeat.Disabled': 'true', 'AzureWebJobs.sweep.Disabled': 'false' };

  beforeAll(async () => {
    host = await startDevHost(
      [
        timerFunction('heartbeat', { schedule: '* * * * * *' }, () => {
          ran.push('heartbeat');
          return Promise.resolve({});
        }),
        timerFunction('sweep', { schedule: '0 0 0 1 1 *' }, () => {
          ran.push('sweep');
          return Promise.resolve({});
        }),
      ],
      { port: 0, log: createLogger({ minLevel: 'error' }), setting: (name) => settings[name], functionLog: () => undefined },
    );
  });
  afterAll(() => host.close());

  it('serves only the functions not disabled', () => {
    expect(host.functions).toEqual(['sweep']);
  });

  it('never runs a disabled timer, on its schedule or on request', async () => {
    // The heartbeat's schedule fires every second: give it two.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const invoked = await fetch(`${host.url}/admin/functions/heartbeat`, { method: 'POST', body: '{}' });
    expect(invoked.status).toBe(404);
    expect(ran).not.toContain('heartbeat');
  });

  it('still runs the others', async () => {
    const invoked = await fetch(`${host.url}/admin/functions/sweep`, { method: 'POST', body: '{}' });
    expect(invoked.status).toBe(202);
    expect(ran).toContain('sweep');
  });
});
