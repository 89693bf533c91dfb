import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, isListening } from '../../development/local/net';
import { providerToken } from '../support/oidcProvider';

/** `npm start` as a user runs it: migrations, the host on PORT, /healthz 200, clean stop on Ctrl-C. */
describe('npm start', () => {
  const root = path.resolve(__dirname, '..', '..');
  let child: ChildProcess | undefined;
  let output = '';

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves /healthz within 30 s and stops cleanly on SIGINT', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/start.ts'], {
      cwd: root,
      // At info, the start's default, so that each request's access line is written.
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect({ status, output }).toMatchObject({ status: 200 });
    expect(output).toContain(`Listening: http://127.0.0.1:${port}`);
    // The runtime of the README's command is the pinned one (the `node` devDependency), not the machine's.
    expect(output).toContain(`Node.js:   v${readFileSync(path.join(root, '.nvmrc'), 'utf8').trim()} (.nvmrc)`);
    expect(output).toMatch(/Database: +PostgreSQL from DATABASE_URL/);
    // Without a hub or VAPID keys configured, the push fakes stand in (docs/notifications.md#push).
    expect(output).toMatch(/Push: +local Notification Hubs fake on https:\/\/127\.0\.0\.1:\d+ \(hub club-push\)/);
    expect(output).toMatch(/local Web Push service fake on https:\/\/127\.0\.0\.1:\d+/);
    // The admin portal, built from portal/src by the start itself (docs/portal.md).
    const portal = await fetch(`http://127.0.0.1:${port}/portal/`);
    expect([portal.status, portal.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(output).toContain(`Portal:    http://127.0.0.1:${port}/portal/`);
    // The demo club is there for the local provider's demo users (tests/development/demoSeed.test.ts).
    expect(output).toContain('Demo:      club demo-club: demo-leader leads it');

    // Sign-in: the local OpenID provider, and the host verifying its tokens (docs/decisions/010-sign-in.md).
    const issuer = /Sign-in: +local OpenID provider (\S+)/.exec(output)?.[1] ?? '';
    expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const config: unknown = await (await fetch(`http://127.0.0.1:${port}/api/auth/config`)).json();
    expect(config).toEqual({
      signIn: { authority: issuer, clientIds: { portal: 'portal', app: 'app' }, scope: 'openid profile offline_access api' },
      developerTokenPaste: true,
    });
    const token = await providerToken({ issuer }, `http://127.0.0.1:${port}`, 'demo-admin');
    const me = await fetch(`http://127.0.0.1:${port}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ sub: 'demo-admin', roles: ['platform_admin'] });
    // The host writes its functions' stdout lines in short batches: the access line arrives soon after the answer.
    const requestId = me.headers.get('x-request-id') ?? '';
    const accessLine = () =>
      output.split('\n').find((line) => line.includes(`"requestId":"${requestId}"`) && line.includes('"event":"http_request"'));
    const lineDeadline = Date.now() + 2_000;
    while (!accessLine() && Date.now() < lineDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(accessLine()).toContain('"path":"/api/me"');

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    // tsx reports an interrupted run as 130, as shells do for Ctrl-C; what matters is the orderly stop.
    expect([0, 130]).toContain(await exited);
    expect(output).toContain('SIGINT: stopping');
    expect(await isListening(port)).toBe(false);
    expect(await isListening(Number(new URL(issuer).port))).toBe(false);
  }, 90_000);

  it('exits with a clear message when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const failed = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/start.ts'], {
        cwd: root,
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      failed.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => failed.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(/Start-up failed: .*EADDRINUSE/);
      expect(stderr).toContain(`port ${port} is already in use (EADDRINUSE); set PORT to a free port`);
    } finally {
      blocker.close();
    }
  }, 45_000);
});
