import { followLocalPort } from '../../development/local/publicBaseUrl';

describe('npm start: the unsubscribe links point at the local host', () => {
  it('on the PORT it listens on, whatever that is', () => {
    const env: Record<string, string | undefined> = { PORT: '7090', NOTIFY_PUBLIC_BASE_URL: '' };
    followLocalPort(env);
    expect(env['NOTIFY_PUBLIC_BASE_URL']).toBe('http://127.0.0.1:7090');
  });

  it('on the default port when PORT is unset', () => {
    const env: Record<string, string | undefined> = {};
    followLocalPort(env);
    expect(env['NOTIFY_PUBLIC_BASE_URL']).toBe('http://127.0.0.1:7071');
  });

  it('keeps an address someone set (a tunnel to this machine)', () => {
    const env: Record<string, string | undefined> = { PORT: '7090', NOTIFY_PUBLIC_BASE_URL: 'https://dev-tunnel.example.org' };
    followLocalPort(env);
    expect(env['NOTIFY_PUBLIC_BASE_URL']).toBe('https://dev-tunnel.example.org');
  });
});
