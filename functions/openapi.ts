import { publicAccess } from '../shared/http/guards';
import { buildOpenApi, type OpenApiArea } from '../shared/http/openapi';
import { defineRoute, json, type Route } from '../shared/http/route';
import { defineGroup, type FunctionDefinition } from '../shared/host/definition';
import { declared } from './declarations';

const CHALLENGES = { name: 'challenges', description: 'Challenge templates, participation, leaderboards, XP and badges, shooter links' };
const NOTIFICATIONS = { name: 'notifications', description: 'The inbox and the notification settings of each user' };
const CLUB_MASTER = { name: 'club master data', description: 'Clubs reported by the on-site boxes and the catalog of clubs to adopt' };
const FRESHNESS = {
  name: 'data freshness',
  description: 'Training plans, freshness history and starter lists: when club data should arrive',
};
const COSTS = { name: 'costs', description: 'Cloud cost dashboard for platform operators' };
const OPERATIONS = { name: 'operations', description: 'Health, diagnostics and this description of the API' };
const CLUBS = { name: 'clubs', description: 'Club memberships: leaders, members, invitations' };
const SESSION = { name: 'session', description: 'How to sign in, who the caller is and what they may do' };
const PEOPLE = { name: 'people', description: 'Profiles: the names people see of each other, and the operators’ lookup of people' };

/** The tag each HTTP function's routes appear under in the document: the area of the service they belong to. */
const AREA_OF_FUNCTION: Record<string, { name: string; description: string }> = {
  challenges: CHALLENGES,
  trainingStreak: CHALLENGES,
  notifications: NOTIFICATIONS,
  userSettings: NOTIFICATIONS,
  userContact: NOTIFICATIONS,
  pushRegistrations: NOTIFICATIONS,
  clubMasterEdge: CLUB_MASTER,
  clubCatalog: CLUB_MASTER,
  trainingPlan: FRESHNESS,
  freshnessHistory: FRESHNESS,
  starterlists: FRESHNESS,
  costs: COSTS,
  health: OPERATIONS,
  diagnostics: OPERATIONS,
  clubOverview: OPERATIONS,
  openapi: OPERATIONS,
  me: SESSION,
  people: PEOPLE,
  clubs: CLUBS,
  authConfig: SESSION,
};

/** The documented functions grouped by area, in the order the areas first appear. A function with routes but no area is a mistake. */
export function openApiAreas(definitions: readonly FunctionDefinition[]): OpenApiArea[] {
  const areas = new Map<string, { name: string; description: string; routes: Route[] }>();
  for (const definition of definitions) {
    if (definition.kind !== 'http' || !definition.routes.length) continue;
    const area = AREA_OF_FUNCTION[definition.name];
    if (!area) throw new Error(`The HTTP function ${definition.name} has no area in the OpenAPI document`);
    const known = areas.get(area.name) ?? { ...area, routes: [] };
    known.routes.push(...definition.routes);
    areas.set(area.name, known);
  }
  return [...areas.values()];
}

/** GET /api/openapi.json, generated from the routes of the given functions on first request. */
export function openApiFunction(documented: () => readonly FunctionDefinition[]): FunctionDefinition {
  let document: unknown;
  return defineGroup(declared.openapi, [
    defineRoute({
      method: 'GET',
      path: '/api/openapi.json',
      summary: 'OpenAPI 3.1 description of every HTTP endpoint',
      guard: publicAccess,
      handle() {
        document ??= buildOpenApi(openApiAreas(documented()), { title: 'Shooting club backend', version: '1.0.0' });
        return Promise.resolve(json(document));
      },
    }),
  ]);
}
