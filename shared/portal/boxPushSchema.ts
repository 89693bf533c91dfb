import * as v from 'valibot';
import { PUSH_STATES } from './boxPushState';

/** The box push blocks of the diagnostics summary and the club page; without I/O imports, so the portal can take its types. */
const iso = v.nullable(v.string());
const state = v.picklist(PUSH_STATES);

export const BoxPushBlockSchema = v.object({
  /** A channel counts as failing after this many hours without an accepted push (CLUB_MASTER_STALE_AFTER_HOURS). */
  staleAfterHours: v.number(),
  failing: v.number(),
  clubs: v.array(
    v.object({
      clubId: v.string(),
      vereinsId: iso,
      name: v.string(),
      clubMaster: state,
      clubMasterReportedAt: iso,
      starterlists: state,
      starterlistPushAt: iso,
      tokenLastUsedAt: iso,
    }),
  ),
});
export type BoxPushBlock = v.InferOutput<typeof BoxPushBlockSchema>;

export const ClubBoxViewSchema = v.object({
  edgeTokens: v.object({ active: v.number(), revoked: v.number(), lastUsedAt: iso }),
  clubMaster: v.object({
    state,
    lastAcceptedAt: iso,
    /** What the newest accepted report changed: clubs reported, added, restored, refreshed, marked deleted. */
    result: v.nullable(
      v.object({ reported: v.number(), added: v.number(), restored: v.number(), refreshed: v.number(), markedDeleted: v.number() }),
    ),
  }),
  starterlists: v.object({
    state,
    lastAcceptedAt: iso,
    lastStarterlistSeenAt: iso,
    recent: v.array(
      v.object({
        listId: v.string(),
        name: iso,
        listDate: v.string(),
        discipline: v.string(),
        startersCount: v.number(),
        lastSeenAt: v.string(),
      }),
    ),
  }),
  /** The box's own Thursday check of its mirror; null until a push carried one. */
  boxCheck: v.nullable(v.object({ checkedAt: v.string(), eveningStart: iso, hitsAfterEvening: v.nullable(v.boolean()) })),
  staleAfterHours: v.number(),
});
export type ClubBoxView = v.InferOutput<typeof ClubBoxViewSchema>;
