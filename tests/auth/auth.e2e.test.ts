import { randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import * as v from 'valibot';
import { authenticatedUser, platformAdmin, requireCapability } from '../../shared/http/guards';
import { defineRoute, json } from '../../shared/http/route';
import { httpGroup } from '../../shared/host/definition';
import { getSettings } from '../../shared/config/settings';
import { readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer, tokenFor } from '../support/tokens';

const whoAmI = (guard: typeof authenticatedUser) =>
  defineRoute({
    method: 'GET',
    path: '/probe/' + guard.description.replace(/[^a-z]+/g, '-'),
    summary: 'echo the caller',
    guard,
    handle: ({ caller }) => Promise.resolve(json({ userId: caller.userId, roles: caller.roles, capabilities: [...caller.capabilities] })),
  });

const routes = [
  defineRoute({
    method: 'GET',
    path: '/probe/user',
    summary: 'user',
    guard: authenticatedUser,
    handle: ({ caller }) => Promise.resolve(json({ userId: caller.userId })),
  }),
  defineRoute({
    method: 'GET',
    path: '/probe/admin',
    summary: 'admin',
    guard: platformAdmin,
    handle: () => Promise.resolve(json({ ok: true })),
  }),
  defineRoute({
    method: 'GET',
    path: '/probe/costs',
    summary: 'costs',
    guard: requireCapability('costs.read'),
    handle: () => Promise.resolve(json({ ok: true })),
  }),
  whoAmI(authenticatedUser),
  defineRoute({
    method: 'POST',
    path: '/probe/echo',
    summary: 'validates a body after auth',
    guard: authenticatedUser,
    body: v.object({ name: v.string() }),
    handle: ({ body }) => Promise.resolve(json(body)),
  }),
];

describe('authentication and authorization', () => {
  const host = useTestHost([httpGroup('probe', 'probe', routes)]);

  const get = (path: string, headers: Record<string, string> = {}) => host.request('GET', path, { headers });

  async function expectUnauthorized(response: Response, detail: RegExp) {
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const problem = await readJson<ProblemJson>(response);
    expect(problem.detail).toMatch(detail);
  }

  it('accepts a valid token and exposes the subject', async () => {
    const response = await get('/probe/user', await bearer('user-1'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ userId: 'user-1' });
  });

  it('401 without an Authorization header', async () => {
    await expectUnauthorized(await get('/probe/user'), /Bearer token is required/);
  });

  it('401 for a non-bearer scheme and for a malformed token', async () => {
    await expectUnauthorized(await get('/probe/user', { authorization: 'Basic dXNlcjpwYXNz' }), /must be "Bearer <token>"/);
    await expectUnauthorized(await get('/probe/user', { authorization: 'Bearer not.a.jwt' }), /malformed/);
  });

  it('401 for an expired token', async () => {
    const token = await tokenFor('user-1', { expiresIn: Math.floor(Date.now() / 1000) - 3600 });
    await expectUnauthorized(await get('/probe/user', { authorization: `Bearer ${token}` }), /expired/);
  });

  it('401 for a token signed with another key', async () => {
    const token = await tokenFor('user-1', { secret: 'a-completely-different-secret-of-enough-length' });
    await expectUnauthorized(await get('/probe/user', { authorization: `Bearer ${token}` }), /signature/);
  });

  it('401 for a token for another audience or issuer', async () => {
    const wrongAudience = await tokenFor('user-1', { audience: 'some-other-api' });
    await expectUnauthorized(await get('/probe/user', { authorization: `Bearer ${wrongAudience}` }), /aud claim/);
    const wrongIssuer = await tokenFor('user-1', { issuer: 'https://elsewhere.example' });
    await expectUnauthorized(await get('/probe/user', { authorization: `Bearer ${wrongIssuer}` }), /iss claim/);
  });

  it('401 for an unsigned alg:none token', async () => {
    const settings = getSettings();
    const token = new UnsecuredJWT({ roles: ['platform_admin'] })
      .setSubject('intruder')
      .setIssuer(settings.AUTH_ISSUER)
      .setAudience(settings.AUTH_AUDIENCE)
      .setExpirationTime('1h')
      .encode();
    await expectUnauthorized(await get('/probe/admin', { authorization: `Bearer ${token}` }), /algorithm|malformed/);
  });

  it('401 for a token without a subject', async () => {
    const settings = getSettings();
    const token = await new SignJWT({ roles: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(settings.AUTH_ISSUER)
      .setAudience(settings.AUTH_AUDIENCE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET));
    await expectUnauthorized(await get('/probe/user', { authorization: `Bearer ${token}` }), /sub claim/);
  });

  it('403 for an authenticated user without the platform_admin role', async () => {
    const response = await get('/probe/admin', await bearer('user-1', { roles: ['support_admin'] }));
    expect(response.status).toBe(403);
    expect((await readJson<ProblemJson>(response)).detail).toMatch(/platform_admin/);
    expect((await get('/probe/admin', await bearer('admin-1', { roles: ['platform_admin'] }))).status).toBe(200);
  });

  it.each([
    ['platform_admin', 200],
    ['ops_admin', 200],
    ['billing_admin', 200],
    ['support_admin', 403],
  ])('costs.read capability: %s -> %i', async (role, status) => {
    expect((await get('/probe/costs', await bearer(randomUUID(), { roles: [role] }))).status).toBe(status);
  });

  it('ignores roles it does not know and never trusts capabilities from the token', async () => {
    const settings = getSettings();
    const token = await new SignJWT({ roles: ['superuser', 'billing_admin'], capabilities: ['diagnostics.read'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('user-2')
      .setIssuer(settings.AUTH_ISSUER)
      .setAudience(settings.AUTH_AUDIENCE)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET));
    const response = await get('/probe/any-authenticated-user', { authorization: `Bearer ${token}` });
    expect(await response.json()).toEqual({ userId: 'user-2', roles: ['billing_admin'], capabilities: ['costs.read'] });
  });

  it('checks credentials before it reads the body', async () => {
    const response = await host.request('POST', '/probe/echo', { body: 'not json', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(401);
  });
});
