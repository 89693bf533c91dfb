import { PassThrough } from 'node:stream';
import { parseEdgeConfig } from '../../edge/config';
import {
  createBoxAccess,
  FAILURE_WINDOW_SECONDS,
  MAX_FAILURES,
  SESSION_COOKIE,
  SESSION_SECONDS,
  type RequestFacts,
} from '../../edge/boxUiAccess';
import { hashPassword, parsePasswordHash, verifyPassword } from '../../edge/boxUiCredential';
import { runHashPasswordCommand } from '../../edge/boxUiHashCommand';

const PASSWORD = 'club box password 2026';
const HOST = '192.168.1.20:7072';

describe('box UI password hash', () => {
  it('verifies the password it was made from and nothing else', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(stored).not.toContain(PASSWORD);
    const hash = parsePasswordHash(stored)!;
    await expect(verifyPassword(hash, PASSWORD)).resolves.toBe(true);
    await expect(verifyPassword(hash, PASSWORD + ' ')).resolves.toBe(false);
    await expect(verifyPassword(hash, '')).resolves.toBe(false);
    await expect(verifyPassword(hash, 'x'.repeat(5000))).resolves.toBe(false);
    // Two hashes of one password differ (their salts do).
    expect(await hashPassword(PASSWORD)).not.toBe(stored);
  });

  it('refuses short passwords and hashes it did not write', async () => {
    await expect(hashPassword('short')).rejects.toThrow('at least 12 characters');
    expect(parsePasswordHash('plain-text-password')).toBeUndefined();
    expect(parsePasswordHash('scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43))).toBeUndefined(); // N not a power of two
    expect(parsePasswordHash('scrypt$67108864$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43))).toBeUndefined(); // too costly
  });

  it('as a setting: a bad value fails the start naming the setting, never showing the value', async () => {
    expect(() => parseEdgeConfig({ SVC_BOX_UI_PASSWORD_HASH: 'hunter2-in-clear' })).toThrow(
      /SVC_BOX_UI_PASSWORD_HASH must be a hash printed by/,
    );
    expect(() => parseEdgeConfig({ SVC_BOX_UI_PASSWORD_HASH: 'hunter2-in-clear' })).not.toThrow(/hunter2/);
    const stored = await hashPassword(PASSWORD);
    expect(parseEdgeConfig({ SVC_BOX_UI_PASSWORD_HASH: stored }).uiPasswordHash).toBe(stored);
    expect(parseEdgeConfig({}).uiPasswordHash).toBeUndefined();
  });

  it('the hash command prints the setting line for two equal entries, and nothing for differing ones', async () => {
    const run = async (text: string) => {
      const input = new PassThrough();
      input.end(text);
      const printed: string[] = [];
      const code = await runHashPasswordCommand(
        input,
        (line) => printed.push(line),
        () => undefined,
      );
      return { code, printed };
    };
    const good = await run(`${PASSWORD}\n${PASSWORD}\n`);
    expect(good.code).toBe(0);
    const [line] = good.printed;
    expect(line).toMatch(/^SVC_BOX_UI_PASSWORD_HASH=scrypt\$/);
    await expect(verifyPassword(parsePasswordHash(line!.split('=')[1]!)!, PASSWORD)).resolves.toBe(true);
    expect(await run(`${PASSWORD}\nsomething else entirely\n`)).toEqual({ code: 2, printed: [] });
    expect(await run(`short\nshort\n`)).toEqual({ code: 2, printed: [] });
    expect(await run('')).toEqual({ code: 2, printed: [] });
  });
});

describe('box interface access', () => {
  let hash: ReturnType<typeof parsePasswordHash>;
  beforeAll(async () => {
    hash = parsePasswordHash(await hashPassword(PASSWORD));
  });
  const request = (facts: Partial<RequestFacts> & { headers?: RequestFacts['headers'] } = {}): RequestFacts => ({
    method: 'GET',
    peer: '192.168.1.50',
    ...facts,
    headers: { host: HOST, ...facts.headers },
  });
  const basic = (password: string) => `Basic ${Buffer.from(`box:${password}`).toString('base64')}`;
  const statusOf = (decision: Awaited<ReturnType<ReturnType<typeof createBoxAccess>['authorize']>>) =>
    decision.ok ? 200 : decision.refusal.status;

  it('without a password: open on loopback as before, refused beyond it with how to set one', async () => {
    const loopback = createBoxAccess({ hash: undefined, loopbackOnly: true });
    expect(statusOf(await loopback.authorize(request({ method: 'PUT' })))).toBe(200);
    const open = createBoxAccess({ hash: undefined, loopbackOnly: false });
    const refused = await open.authorize(request());
    expect(refused).toMatchObject({ ok: false, refusal: { status: 403 } });
    expect(refused.ok ? '' : (refused.refusal.body as { detail: string }).detail).toContain('hash-password');
    const signIn = await open.signIn(PASSWORD, request({ method: 'POST', headers: { origin: `http://${HOST}` } }));
    expect(signIn).toMatchObject({ ok: false, refusal: { status: 503 } });
  });

  it('with a password: HTTP Basic or a session, from any address, loopback included', async () => {
    const access = createBoxAccess({ hash, loopbackOnly: true });
    expect(statusOf(await access.authorize(request()))).toBe(401);
    expect(statusOf(await access.authorize(request({ headers: { authorization: basic(PASSWORD) } })))).toBe(200);
    expect(statusOf(await access.authorize(request({ headers: { authorization: basic('wrong password!') } })))).toBe(401);
    expect(statusOf(await access.authorize(request({ headers: { authorization: 'Bearer ' + PASSWORD } })))).toBe(401);
    expect(statusOf(await access.authorize(request({ headers: { cookie: `${SESSION_COOKIE}=made-up` } })))).toBe(401);
  });

  it('a session cookie is HttpOnly and SameSite=Strict, ends at sign-out and after its lifetime', async () => {
    let clock = 1_000_000;
    const access = createBoxAccess({ hash, loopbackOnly: false, now: () => clock });
    const outcome = await access.signIn(PASSWORD, request({ method: 'POST', headers: { origin: `http://${HOST}` } }));
    if (!outcome.ok) throw new Error('sign-in refused');
    expect(outcome.cookie).toMatch(/; HttpOnly; SameSite=Strict; /);
    const cookie = outcome.cookie.split(';')[0]!;
    expect(statusOf(await access.authorize(request({ headers: { cookie } })))).toBe(200);
    clock += SESSION_SECONDS * 1000;
    expect(statusOf(await access.authorize(request({ headers: { cookie } })))).toBe(401);

    const again = await access.signIn(PASSWORD, request({ method: 'POST', headers: { origin: `http://${HOST}` } }));
    if (!again.ok) throw new Error('sign-in refused');
    const second = again.cookie.split(';')[0]!;
    expect(access.signOut(request({ headers: { cookie: second } }))).toContain('Max-Age=0');
    expect(statusOf(await access.authorize(request({ headers: { cookie: second } })))).toBe(401);
  });

  it('changes need the same origin: a cross-site page is refused even with a valid session or password', async () => {
    const access = createBoxAccess({ hash, loopbackOnly: false });
    const outcome = await access.signIn(PASSWORD, request({ method: 'POST', headers: { origin: `http://${HOST}` } }));
    if (!outcome.ok) throw new Error('sign-in refused');
    const cookie = outcome.cookie.split(';')[0]!;
    const change = (headers: Record<string, string>) => access.authorize(request({ method: 'PUT', headers: { cookie, ...headers } }));
    expect(statusOf(await change({ origin: `http://${HOST}` }))).toBe(200);
    expect(statusOf(await change({ origin: 'http://evil.example' }))).toBe(403);
    expect(statusOf(await change({ origin: `http://${HOST}`, 'sec-fetch-site': 'cross-site' }))).toBe(403);
    // A cookie alone, without the Origin a browser sends, is not enough for a change.
    expect(statusOf(await change({}))).toBe(403);
    // Reading needs no origin.
    expect(statusOf(await access.authorize(request({ headers: { cookie } })))).toBe(200);
    // Scripts on the box send the password without an Origin.
    expect(statusOf(await access.authorize(request({ method: 'POST', headers: { authorization: basic(PASSWORD) } })))).toBe(200);
    // The sign-in itself must come from the page.
    expect(await access.signIn(PASSWORD, request({ method: 'POST', headers: { origin: 'http://evil.example' } }))).toMatchObject({
      ok: false,
      refusal: { status: 403 },
    });
    expect(await access.signIn(PASSWORD, request({ method: 'POST' }))).toMatchObject({ ok: false, refusal: { status: 403 } });
    expect(await access.signIn(42, request({ method: 'POST', headers: { origin: `http://${HOST}` } }))).toMatchObject({
      ok: false,
      refusal: { status: 400 },
    });
  });

  it('limits wrong passwords per peer: after the limit even the right one waits until the window ends', async () => {
    let clock = 5_000_000;
    const access = createBoxAccess({ hash, loopbackOnly: false, now: () => clock });
    const from = (peer: string, password: string) =>
      access.signIn(password, request({ method: 'POST', peer, headers: { origin: `http://${HOST}` } }));
    for (let attempt = 1; attempt < MAX_FAILURES; attempt += 1) {
      expect(await from('10.0.0.9', `wrong password ${attempt}`)).toMatchObject({ ok: false, refusal: { status: 401 } });
    }
    const limited = await from('10.0.0.9', 'wrong password last');
    expect(limited).toMatchObject({ ok: false, refusal: { status: 429, headers: { 'retry-after': String(FAILURE_WINDOW_SECONDS) } } });
    expect(await from('10.0.0.9', PASSWORD)).toMatchObject({ ok: false, refusal: { status: 429 } });
    // HTTP Basic counts against the same limit.
    expect(statusOf(await access.authorize(request({ peer: '10.0.0.9', headers: { authorization: basic(PASSWORD) } })))).toBe(429);
    // Another peer is not affected.
    expect(await from('10.0.0.10', PASSWORD)).toMatchObject({ ok: true });
    clock += FAILURE_WINDOW_SECONDS * 1000;
    expect(await from('10.0.0.9', PASSWORD)).toMatchObject({ ok: true });
  });
});
