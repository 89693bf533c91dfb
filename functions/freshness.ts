import * as v from 'valibot';
import { getSql } from '../shared/db/client';
import { edgeBox } from '../shared/clubMaster/edgeAuth';
import { runFreshnessCheck } from '../shared/freshness/freshnessTimer';
import { recordStarterlists, StarterlistPushResultSchema, StarterlistPushSchema } from '../shared/freshness/starterlists';
import { TrainingPlanBodySchema } from '../shared/freshness/trainingPlan';
import { getTrainingPlan, putTrainingPlan, TrainingPlanViewSchema } from '../shared/freshness/trainingPlanService';
import { httpGroup, timerFunction } from '../shared/host/definition';
import { clubRole } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';

const ClubParamsSchema = v.object({ clubId: v.pipe(v.string(), v.nonEmpty()) });
const planGuard = clubRole('clubId', 'leader', { orCapability: 'clubs.manage' });

/** Data freshness: training plans, the starter-list channel of the boxes, the evaluation timer. */
export const freshnessFunctions = [
  httpGroup('trainingPlan', 'api/admin/clubs/{clubId}/training-plan', [
    defineRoute({
      method: 'GET',
      path: '/api/admin/clubs/{clubId}/training-plan',
      summary: "The club's training plan (weekly evenings in its time zone); the default Wednesday 18:00-20:00 as planSource assumed",
      guard: planGuard,
      params: ClubParamsSchema,
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
      guard: planGuard,
      params: ClubParamsSchema,
      body: TrainingPlanBodySchema,
      response: TrainingPlanViewSchema,
      async handle({ params, body, caller, log }) {
        const plan = await putTrainingPlan(getSql(), params.clubId, body, caller.userId);
        log.info('training_plan_saved', { clubId: params.clubId, evenings: plan.evenings.length, by: caller.userId });
        return json(plan);
      },
    }),
  ]),
  httpGroup('starterlists', 'api/edge/starterlists', [
    defineRoute({
      method: 'POST',
      path: '/api/edge/starterlists',
      summary: "A box pushes the evening's starter lists (no personal data) and its own freshness check",
      guard: edgeBox,
      body: StarterlistPushSchema,
      response: StarterlistPushResultSchema,
      async handle({ caller, body, log }) {
        const result = await recordStarterlists(getSql(), caller.clubId, body);
        log.info('starterlists_received', { clubId: caller.clubId, received: result.received, added: result.added });
        return json(result);
      },
    }),
  ]),
  timerFunction('freshnessCheck', { schedule: '%FRESHNESS_SCHEDULE%' }, ({ log }) => runFreshnessCheck(getSql(), new Date(), log)),
];
