import * as v from 'valibot';
import { DataFreshnessEntrySchema } from './diagnosticsSchema';

/**
 * Why the freshness check passes a club by: only active clubs with a club number can deliver hits
 * (club_data_hit.source_club_id is the club number), so only those are checked.
 */
export const NOT_CHECKED_REASONS = ['inactive', 'no_club_number'] as const;

export const ClubFreshnessViewSchema = v.object({
  checked: v.boolean(),
  /** Set when checked is false. */
  notCheckedReason: v.nullable(v.picklist(NOT_CHECKED_REASONS)),
  /** The evaluation as the diagnostics list shows it (status, evening, rule-6 hint, signals); null when not checked. */
  entry: v.nullable(v.omit(DataFreshnessEntrySchema, ['consent'])),
});
export type ClubFreshnessView = v.InferOutput<typeof ClubFreshnessViewSchema>;
