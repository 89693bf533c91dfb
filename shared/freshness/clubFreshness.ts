import * as v from 'valibot';
import { dueEvening, judgeArrival, overallFreshness, type ClubVerdict, type Evening, type FreshnessOverview } from './evaluation';
import { FreshnessCountsSchema } from './diagnosticsSchema';
import type { ClubSignals } from './freshnessRepository';
import { freshnessHint, type Hint } from './hints';
import { resolvePlan, type PlanSource, type TrainingPlan } from './trainingPlan';

/** The body of GET /healthz/data-freshness, for the OpenAPI document. */
export const FreshnessOverviewSchema = v.pipe(FreshnessCountsSchema, v.title('FreshnessOverview'));

/** Seconds a caller is asked to wait before checking again after the check itself failed. */
export const FRESHNESS_RETRY_AFTER_SECONDS = 60;

/** One club's evaluation with the signals it came from. */
export interface ClubFreshness {
  signals: ClubSignals;
  plan: TrainingPlan;
  planSource: PlanSource;
  verdict: ClubVerdict;
  hint: Hint | null;
}

/**
 * Evaluates every club read by readClubSignals at `now`. Pure. Clubs sharing a plan (most keep
 * the default) share its due evening, which is computed once per plan.
 */
export function evaluateClubs(clubs: readonly ClubSignals[], now: Date): ClubFreshness[] {
  // Placing evenings on a zone's calendar costs Intl calls; once per distinct plan is enough.
  const evenings = new Map<string, Evening>();
  return clubs.map((signals) => {
    const { plan, planSource } = resolvePlan(signals.storedPlan);
    const key = JSON.stringify(plan);
    let evening = evenings.get(key);
    if (!evening) {
      evening = dueEvening(plan, now);
      evenings.set(key, evening);
    }
    const verdict = judgeArrival(evening, signals.lastArrivalAt, now);
    const boxCheck =
      signals.boxCheckAt && signals.boxCheckHitsAfter !== null
        ? { checkedAt: signals.boxCheckAt, hitsAfterEvening: signals.boxCheckHitsAfter }
        : null;
    const hint = freshnessHint({
      status: verdict.status,
      evening: verdict.evening,
      edgeTokenLastUsedAt: signals.edgeTokenLastUsedAt,
      lastStarterlistSeenAt: signals.lastStarterlistSeenAt,
      boxCheck,
    });
    return { signals, plan, planSource, verdict, hint };
  });
}

/**
 * The body of GET /healthz/data-freshness: the clubs are read (`read`) and evaluated; a failing
 * read makes the overall status error (the failure is handed to `onError` for the log).
 */
export async function checkFreshness(
  read: () => Promise<readonly ClubSignals[]>,
  now: Date,
  onError: (error: unknown) => void,
): Promise<FreshnessOverview> {
  let clubs: readonly ClubSignals[];
  try {
    clubs = await read();
  } catch (error) {
    onError(error);
    return overallFreshness(undefined, now);
  }
  return overallFreshness(
    evaluateClubs(clubs, now).map((club) => club.verdict.status),
    now,
  );
}
