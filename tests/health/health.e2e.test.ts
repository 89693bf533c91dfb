import { useTestHost } from '../support/testHost';

describe('GET /healthz through the local host', () => {
  const host = useTestHost();

  it('answers 200 with the database and storage components up', async () => {
    const response = await host.request('GET', '/healthz');
    const text = await response.clone().text();
    expect([response.status, text]).toEqual([200, text]);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const body = (await response.json()) as { status: string; components: Record<string, { status: string }> };
    expect(body.status).toBe('ok');
    expect(body.components['database']?.status).toBe('up');
    expect(body.components['storage']?.status).toBe('up');
  });

  it('answers HEAD like GET, without a body, for uptime monitors', async () => {
    const response = await host.request('HEAD', '/healthz');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('');
  });
});
