import * as v from 'valibot';
import { DeadLetterBlockSchema } from './deadLetterSchema';
import { RejectEntrySchema } from './healthSchema';

const text = v.nullable(v.string());

export const ClubIngestViewSchema = v.object({
  /** The club's topics: `club.<club number>.<entity>` (docs/ingest-contract.md). */
  topicPrefix: v.string(),
  rejects: v.array(RejectEntrySchema),
  deadLetters: DeadLetterBlockSchema,
  /**
   * The incident context when the club's path is involved (rule 1 and 2): the open quarantine,
   * the suspected drift and the last contract reject, each only when it names the club's topics
   * or club number; null otherwise.
   */
  quarantine: v.nullable(v.object({ since: text, topic: text, clubId: text, entity: text, reason: text, detail: text })),
  drift: v.nullable(v.object({ state: v.string(), detail: v.string() })),
  lastReject: v.nullable(v.object({ at: text, reason: text, topic: text, entity: text, clubId: text })),
});
export type ClubIngestView = v.InferOutput<typeof ClubIngestViewSchema>;
