import { publicAccess } from '../../shared/http/guards';
import { defineRoute, json } from '../../shared/http/route';

/** `GET /probe/items`, open to anyone: the plain route the hostile-request tests aim their requests at. */
export const probeList = defineRoute({
  method: 'GET',
  path: '/probe/items',
  summary: 'list',
  guard: publicAccess,
  handle: () => Promise.resolve(json({ items: ['a'] })),
});
