import * as v from 'valibot';
import { FRESHNESS_STATUSES } from '../freshness/evaluation';
import { HINT_CODES } from '../freshness/hints';
import { PUSH_STATES } from './boxPushState';
import { CLUB_CAUSES, CONSENT_STATES } from './clubStory';
import { PROBLEM_KINDS, SEVERITIES } from './openProblems';

/** The status board's answers (open problems, one story per club); without I/O imports, so the portal takes their types. */
const pushState = v.picklist(PUSH_STATES);

export const ClubStorySchema = v.object({
  freshness: v.picklist([...FRESHNESS_STATUSES, 'not_checked']),
  hint: v.nullable(v.picklist(HINT_CODES)),
  /** Push states per channel; null where the answer does not know them (a club whose pushes are not failing). */
  pushes: v.nullable(v.object({ clubMaster: pushState, starterlists: pushState })),
  consent: v.picklist(CONSENT_STATES),
  quarantined: v.boolean(),
  deadLetters: v.number(),
  troubled: v.boolean(),
  /** The most likely cause among the signals above; null when nothing is wrong. */
  cause: v.nullable(v.picklist(CLUB_CAUSES)),
  tone: v.picklist(['danger', 'warning', 'ok']),
});
export type ClubStoryView = v.InferOutput<typeof ClubStorySchema>;

export const ProblemSchema = v.object({
  kind: v.picklist(PROBLEM_KINDS),
  severity: v.picklist(SEVERITIES),
  /** The club affected, when the problem is one club's. */
  club: v.nullable(v.object({ clubId: v.string(), name: v.string(), vereinsId: v.nullable(v.string()) })),
  /** The part affected when it is not a club: a topic, a channel. */
  part: v.nullable(v.string()),
  /** For a club's problem: the most likely cause from its story. */
  cause: v.nullable(v.picklist(CLUB_CAUSES)),
  /** The values the one-line cause names (a reason, a detail, a count, hours late). */
  facts: v.record(v.string(), v.nullable(v.union([v.string(), v.number()]))),
  /** The section of docs/runbook-ingest.md with the step to take; null when the step is the page's own. */
  runbook: v.nullable(v.string()),
  /** The portal page that shows it (a hash route). */
  link: v.string(),
  since: v.nullable(v.string()),
});
export type ProblemView = v.InferOutput<typeof ProblemSchema>;

export const ClubStoriesSchema = v.array(v.object({ clubId: v.string(), story: ClubStorySchema }));
