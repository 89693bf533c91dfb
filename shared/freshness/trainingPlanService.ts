import type { Queryable } from '../db/client';
import { invalid, NotFoundError } from '../errors/domainErrors';
import { clubExists, findStoredPlan, saveStoredPlan } from './freshnessRepository';
import { checkPlanRules, resolvePlan, type TrainingPlanBody } from './trainingPlan';
import type { TrainingPlanView } from './trainingPlanViewSchema';

export { TrainingPlanViewSchema, type TrainingPlanView } from './trainingPlanViewSchema';

function noSuchClub(): NotFoundError {
  return new NotFoundError('There is no club with this id.', { code: 'club_not_found' });
}

/** The club's plan: its stored one, or the default reported as planSource assumed. */
export async function getTrainingPlan(sql: Queryable, clubId: string): Promise<TrainingPlanView> {
  const stored = await findStoredPlan(sql, clubId);
  if (!stored && !(await clubExists(sql, clubId))) throw noSuchClub();
  const { plan, planSource } = resolvePlan(stored?.plan);
  return { clubId, planSource, timeZone: plan.timeZone, evenings: plan.evenings, updatedAt: stored?.updatedAt.toISOString() ?? null };
}

/** Replaces the club's plan after checking every rule (400 naming each failing field). */
export async function putTrainingPlan(
  sql: Queryable,
  clubId: string,
  body: TrainingPlanBody,
  updatedBy: string,
): Promise<TrainingPlanView> {
  const checked = checkPlanRules(body);
  if ('errors' in checked) throw invalid('The training plan did not pass validation.', checked.errors);
  if (!(await clubExists(sql, clubId))) throw noSuchClub();
  const updatedAt = await saveStoredPlan(sql, clubId, checked.plan, updatedBy);
  return { clubId, planSource: 'stored', ...checked.plan, updatedAt: updatedAt.toISOString() };
}
