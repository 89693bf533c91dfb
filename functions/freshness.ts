import * as v from 'valibot';
import { pageLimit, pageOffset } from '../shared/paging/limit';
import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { runHitMaintenance } from '../shared/ingest/hitMaintenance';
import { edgeBox } from './guards/edgeBox';
import { FRESHNESS_STATUSES } from '../shared/freshness/evaluation';
import { NotFoundError } from '../shared/errors/domainErrors';
import { clubExists } from '../shared/freshness/freshnessRepository';
import { listFreshnessHistory } from '../shared/freshness/freshnessState';
import { runFreshnessCheck } from '../shared/freshness/freshnessTimer';
import { receiveStarterlistPush, StarterlistPushResultSchema, StarterlistPushSchema } from '../shared/freshness/starterlists';
import { TrainingPlanBodySchema } from '../shared/freshness/trainingPlan';
import { getTrainingPlan, putTrainingPlan, TrainingPlanViewSchema } from '../shared/freshness/trainingPlanService';
import { defineGroup, defineTimer } from '../shared/host/definition';
import { declared } from './declarations';
import { clubRole } from './guards/clubRole';
import { defineRoute, json } from '../shared/http/route';

const ClubParamsSchema = v.object({ clubId: v.pipe(v.string(), v.nonEmpty()) });
const planGuard = clubRole('clubId', 'leader', { orCapability: 'clubs.manage' });
/** Who may call a route on a club's plan or its history, the club it names, and the 404 when there is none. */
const ofAClubsPlan = {
  guard: planGuard,
  params: ClubParamsSchema,
  responses: { 404: { description: 'There is no club with this id (platform admins; others get 403)' } },
};

const HistoryQuerySchema = v.object({ limit: pageLimit(50, 200), offset: pageOffset(1_000_000) });
const HistoryPageSchema = v.object({
  items: v.array(
    v.object({
      status: v.picklist(FRESHNESS_STATUSES),
      previousStatus: v.nullable(v.picklist(FRESHNESS_STATUSES)),
      evening: v.nullable(v.object({ start: v.string(), end: v.string() })),
      changedAt: v.string(),
    }),
  ),
  nextOffset: v.nullable(v.number()),
});

/** Data freshness: training plans, the starter-list channel of the boxes, the evaluation timer. */
export const freshnessFunctions = [
  defineGroup(declared.trainingPlan, [
    defineRoute({
      method: 'GET',
      path: '/api/admin/clubs/{clubId}/training-plan',
      summary: "The club's training plan (weekly evenings in its time zone); the default Wednesday 18:00-20:00 as planSource assumed",
      ...ofAClubsPlan,
      response: TrainingPlanViewSchema,
      async handle({ params }) {
        return json(await getTrainingPlan(getSql(), params.clubId), 200, { 'cache-control': 'no-store' });
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/admin/clubs/{clubId}/training-plan',
      summary:
        "Replaces the club's training plan (400 naming the field for an unknown time zone, an end before its start, overlapping evenings)",
      ...ofAClubsPlan,
      body: TrainingPlanBodySchema,
      response: TrainingPlanViewSchema,
      async handle({ params, body, caller, log }) {
        const plan = await putTrainingPlan(getSql(), params.clubId, body, caller.userId);
        log.info('training_plan_saved', { clubId: params.clubId, evenings: plan.evenings.length, by: caller.userId });
        return json(plan);
      },
    }),
  ]),
  defineGroup(declared.freshnessHistory, [
    defineRoute({
      method: 'GET',
      path: '/api/admin/clubs/{clubId}/freshness-history',
      summary: "The club's freshness status changes, newest first, each with the evening evaluated (limit 1..200, default 50; offset)",
      ...ofAClubsPlan,
      query: HistoryQuerySchema,
      response: HistoryPageSchema,
      async handle({ params, query }) {
        const rows = await listFreshnessHistory(getSql(), params.clubId, query.limit + 1, query.offset);
        if (rows.length === 0 && !(await clubExists(getSql(), params.clubId))) {
          throw new NotFoundError('There is no club with this id.', { code: 'club_not_found' });
        }
        const items = rows.slice(0, query.limit).map((row) => ({
          status: row.status,
          previousStatus: row.previousStatus,
          evening: row.eveningStart && row.eveningEnd ? { start: row.eveningStart.toISOString(), end: row.eveningEnd.toISOString() } : null,
          changedAt: row.changedAt.toISOString(),
        }));
        const nextOffset = rows.length > query.limit ? query.offset + query.limit : null;
        return json({ items, nextOffset }, 200, { 'cache-control': 'no-store' });
      },
    }),
  ]),
  defineGroup(declared.starterlists, [
    defineRoute({
      method: 'POST',
      path: '/api/edge/starterlists',
      summary: "A box pushes the evening's starter lists (no personal data) and its own freshness check",
      guard: edgeBox,
      body: StarterlistPushSchema,
      response: StarterlistPushResultSchema,
      async handle({ caller, body, log }) {
        const result = await receiveStarterlistPush(getSql(), caller, body);
        log.info('starterlists_received', { clubId: caller.clubId, received: result.received, added: result.added });
        return json(result);
      },
    }),
  ]),
  // Hits are the freshness check's data: the same hourly timer keeps their month partitions.
  defineTimer(declared.freshnessCheck, async ({ log }) => {
    const checked = await runFreshnessCheck(getSql(), new Date(), log);
    return { ...checked, ...(await runHitMaintenance(getSql(), new Date(), getSettings(), log)) };
  }),
];
