import { meFunctions } from '../../functions/me';
import { openApiFunction } from '../../functions/openapi';
import { readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { inlineSchemaRefs, type OpenApiDocument } from '../support/openApiDocument';

/** GET /api/me: what the portal gates its navigation on. Capabilities come from the server's role map. */
describe('GET /api/me', () => {
  const host = useTestHost([...meFunctions, openApiFunction(() => meFunctions)]);

  it('answers the sub, the roles and the capabilities derived from them', async () => {
    const response = await host.request('GET', '/api/me', { headers: await bearer('admin-1', { roles: ['platform_admin'] }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await readJson(response)).toEqual({
      sub: 'admin-1',
      roles: ['platform_admin'],
      capabilities: ['costs.read', 'diagnostics.read', 'clubs.manage', 'platform.admin', 'ingest.details'],
    });
  });

  it.each([
    [['billing_admin'], ['costs.read']],
    [['ops_admin'], ['costs.read', 'ingest.details']],
    [['support_admin'], []],
    [[], []],
  ])('roles %j grant exactly %j (support_admin has no costs.read)', async (roles, capabilities) => {
    const response = await host.request('GET', '/api/me', { headers: await bearer('someone', { roles }) });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ sub: 'someone', roles, capabilities });
  });

  it('never takes capabilities from the token, and drops roles the service does not know', async () => {
    const headers = await bearer('u-2', { roles: ['support_admin', 'costs.read', 'Global Administrator'] });
    expect(await readJson(await host.request('GET', '/api/me', { headers }))).toEqual({
      sub: 'u-2',
      roles: ['support_admin'],
      capabilities: [],
    });
  });

  it('is 401 without a token and with a token signed by someone else', async () => {
    const anonymous = await host.request('GET', '/api/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('Bearer');
    expect((await readJson<ProblemJson>(anonymous)).status).toBe(401);
    const forged = await host.request('GET', '/api/me', {
      headers: await bearer('admin-1', { roles: ['platform_admin'], secret: 'y'.repeat(40) }),
    });
    expect(forged.status).toBe(401);
  });

  it('takes only GET and DELETE', async () => {
    const response = await host.request('POST', '/api/me', { headers: await bearer('admin-1') });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, DELETE');
  });

  it('is in the OpenAPI document with its guard, bearer security and the session schema', async () => {
    const document = inlineSchemaRefs(await readJson<OpenApiDocument>(await host.request('GET', '/api/openapi.json')));
    const operation = document.paths['/api/me']?.['get'];
    expect(operation).toMatchObject({
      description: 'Who may call: any authenticated user.',
      security: [{ bearerAuth: [] }],
      responses: {
        '200': { content: { 'application/json': { schema: { type: 'object', required: ['sub', 'roles', 'capabilities'] } } } },
        '401': expect.anything() as unknown,
      },
    });
  });
});
