import * as v from 'valibot';
import { openApiAreas } from '../../functions/openapi';
import { httpGroup } from '../../shared/host/definition';
import { authenticatedUser, publicAccess } from '../../shared/http/guards';
import { buildOpenApi } from '../../shared/http/openapi';
import { defineRoute, json, type Route } from '../../shared/http/route';
import { wholeNumber } from '../../shared/validation/wholeNumber';
import type { OpenApiDocument } from '../support/openApiDocument';

const Badge = v.pipe(v.object({ name: v.string() }), v.title('Badge'));
const Player = v.pipe(v.object({ id: v.string(), badges: v.array(Badge) }), v.title('Player'));

const listPlayers = defineRoute({
  method: 'GET',
  path: '/api/players',
  summary: 'Players',
  guard: authenticatedUser,
  query: v.object({ limit: wholeNumber(20, 1, 100), name: v.optional(v.string()) }),
  response: v.object({ items: v.array(Player) }),
  handle: () => Promise.resolve(json({ items: [] })),
});
const onePlayer = defineRoute({
  method: 'GET',
  path: '/api/players/{id}',
  summary: 'One player',
  guard: publicAccess,
  params: v.object({ id: v.string() }),
  response: Player,
  responses: { 404: { description: 'No such player' } },
  handle: () => Promise.resolve(json({ id: 'p', badges: [] })),
});

const build = (routes: Route[]) =>
  buildOpenApi([{ name: 'players', description: 'The players', routes }], { title: 't', version: '1' }) as unknown as OpenApiDocument & {
    tags: unknown[];
    servers: unknown[];
    info: { license: unknown };
  };

describe('buildOpenApi', () => {
  const document = build([listPlayers, onePlayer]);
  const list = document.paths['/api/players']!['get']!;
  const one = document.paths['/api/players/{id}']!['get']!;

  it('lists each titled schema once under components and refers to it wherever it is used', () => {
    expect(document.components.schemas['Player']).toMatchObject({
      type: 'object',
      title: 'Player',
      properties: { badges: { type: 'array', items: { $ref: '#/components/schemas/Badge' } } },
    });
    expect(document.components.schemas['Badge']).toMatchObject({ type: 'object', properties: { name: { type: 'string' } } });
    expect(one.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Player' });
    expect(list.responses['200']?.content?.['application/json']?.schema).toMatchObject({
      properties: { items: { items: { $ref: '#/components/schemas/Player' } } },
    });
  });

  it('describes a whole-number query parameter as the integer it becomes, with its bounds and default', () => {
    expect(list.parameters).toEqual([
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'name', in: 'query', required: false, schema: { type: 'string' } },
    ]);
  });

  it('says a public operation takes no credential and a guarded one takes the bearer token', () => {
    expect(one.security).toEqual([]);
    expect(list.security).toEqual([{ bearerAuth: [] }]);
  });

  it('tags each operation with its area, and names the servers and the licence', () => {
    expect(document.tags).toEqual([{ name: 'players', description: 'The players' }]);
    expect((one as { tags?: string[] }).tags).toEqual(['players']);
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) as unknown }]);
    expect(document.info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
  });

  it('refuses two different schemas under one title', () => {
    const other = defineRoute({ ...onePlayer, path: '/api/other', response: v.pipe(v.object({ x: v.string() }), v.title('Player')) });
    expect(() => build([onePlayer, other])).toThrow('Two different schemas are titled Player');
  });

  it('refuses an HTTP function that belongs to no area', () => {
    expect(() => openApiAreas([httpGroup('somethingNew', 'api/new', [onePlayer])])).toThrow(/somethingNew has no area/);
  });
});
