import { readJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import type { OpenApiDocument } from '../support/openApiDocument';

describe('club master routes in the OpenAPI document', () => {
  const host = useTestHost();

  it('documents the sync route with the edge token scheme and the admin routes with bearer auth', async () => {
    const response = await host.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const document = await readJson<OpenApiDocument>(response);
    const sync = document.paths['/api/edge/clubs/sync']?.['post'];
    expect(sync?.security).toEqual([{ edgeToken: [] }]);
    // The dispatcher validates only the envelope, but the document shows the real entries and the cap.
    const clubs = sync?.requestBody?.content['application/json']?.schema.properties?.['clubs'];
    expect(clubs).toMatchObject({
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['vereinsId', 'name'],
        properties: { vereinsId: { type: 'string', maxLength: 32 }, name: { type: 'string', maxLength: 200 } },
      },
    });
    expect(document.paths['/api/admin/clubs']?.['get']?.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/admin/clubs/adopt']?.['post']?.security).toEqual([{ bearerAuth: [] }]);
  });
});
