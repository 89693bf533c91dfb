import * as v from 'valibot';
import { WEEKDAYS } from './trainingPlan';

/** A club's training plan as the API answers it; without I/O imports, so the portal can take its types. */
export const TrainingPlanViewSchema = v.pipe(
  v.object({
    clubId: v.string(),
    planSource: v.picklist(['stored', 'assumed']),
    timeZone: v.string(),
    evenings: v.array(v.object({ weekday: v.picklist(WEEKDAYS), start: v.string(), end: v.string(), endsNextDay: v.boolean() })),
    /** When the stored plan was last written; null for the assumed default. */
    updatedAt: v.nullable(v.string()),
  }),
  v.title('TrainingPlan'),
);
export type TrainingPlanView = v.InferOutput<typeof TrainingPlanViewSchema>;
