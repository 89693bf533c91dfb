import * as v from 'valibot';
import { BoxConsentReportSchema } from '../boxConnector/consentReport';
import { recordReportedConsent } from '../boxConnector/consentRepository';
import type { Queryable, Sql } from '../db/client';
import { humanTextSchema } from '../validation/humanText';
import { BOX_CLOCK_SKEW_MINUTES, timestampSchema } from '../validation/timestamp';

/**
 * The starter-list channel: a box pushes the evening's starter lists of its club software. No
 * personal data: only the list's own id, an optional name, date, discipline, lane count and
 * starters count. The item schema is strict, so a box that sends anything more (starters' names)
 * is refused rather than having it stored by accident.
 */

export const MAX_STARTERLISTS_PER_PUSH = 500;

const IsoDateSchema = v.pipe(
  v.string('must be a string'),
  v.isoDate('must be a date "YYYY-MM-DD"'),
  v.check(
    (value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'must be a real calendar date',
  ),
);

const count = (max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(0, 'must not be negative'),
    v.maxValue(max, `must be at most ${max}`),
  );

export const StarterlistSchema = v.strictObject(
  {
    /** The list's own id in the club software. */
    id: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[A-Za-z0-9._:/-]{1,64}$/, 'must be 1 to 64 letters, digits or "._:/-"')),
    name: v.optional(humanTextSchema(200)),
    date: IsoDateSchema,
    discipline: humanTextSchema(100),
    laneCount: count(1000),
    startersCount: count(100_000),
  },
  'must carry only id, name, date, discipline, laneCount and startersCount',
);
export type Starterlist = v.InferOutput<typeof StarterlistSchema>;

// Read from the box's clock: a check dated in the future would outrank every real one.
const boxTimestamp = timestampSchema({ maxMinutesAhead: BOX_CLOCK_SKEW_MINUTES });

/** The box's own freshness check (Thursday 05:00 UTC): were there hits in the mirror after the evening? */
export const BoxCheckSchema = v.strictObject(
  {
    checkedAt: boxTimestamp,
    eveningStart: boxTimestamp,
    hitsAfterEvening: v.boolean('must be true or false'),
  },
  'must carry only checkedAt, eveningStart and hitsAfterEvening',
);

export const StarterlistPushSchema = v.strictObject(
  {
    starterlists: v.pipe(
      v.array(StarterlistSchema, 'must be an array'),
      v.maxLength(MAX_STARTERLISTS_PER_PUSH, `must list at most ${MAX_STARTERLISTS_PER_PUSH} starter lists`),
      v.check((lists) => new Set(lists.map((list) => list.id)).size === lists.length, 'must not list the same id twice'),
    ),
    boxCheck: v.optional(v.nullable(BoxCheckSchema)),
    /** The club's data-sharing consent as the box holds it; recorded for the box's own club when it changed. */
    consent: v.optional(BoxConsentReportSchema),
  },
  'must carry only starterlists, boxCheck and consent',
);
export type StarterlistPush = v.InferOutput<typeof StarterlistPushSchema>;

export const StarterlistPushResultSchema = v.pipe(
  v.object({
    received: v.number(),
    added: v.number(),
    lastStarterlistSeenAt: v.nullable(v.string()),
  }),
  v.title('StarterlistPushResult'),
);
export type StarterlistPushResult = v.InferOutput<typeof StarterlistPushResultSchema>;

/**
 * Records one push of the box bound to `clubId`: upserts the lists, and the box's signal row —
 * lastStarterlistSeenAt moves only when the push carried a list (an empty push proves the box
 * lives, which edgeTokenLastUsedAt already says, not that its club software does).
 */
export async function recordStarterlists(sql: Queryable, clubId: string, push: StarterlistPush): Promise<StarterlistPushResult> {
  const lists = push.starterlists;
  const inserted = await sql<{ inserted: boolean }[]>`
    insert into edge_starterlist as list (club_id, list_id, name, list_date, discipline, lane_count, starters_count, first_seen_at, last_seen_at)
    select ${clubId}, l.id, l.name, l.date::date, l.discipline, l.lanes, l.starters, now(), now()
    from unnest(
      ${lists.map((list) => list.id)}::text[], ${lists.map((list) => list.name ?? null)}::text[], ${lists.map((list) => list.date)}::text[],
      ${lists.map((list) => list.discipline)}::text[], ${lists.map((list) => list.laneCount)}::int[], ${lists.map((list) => list.startersCount)}::int[]
    ) as l(id, name, date, discipline, lanes, starters)
    order by l.id
    on conflict (club_id, list_id) do update set
      name = excluded.name, list_date = excluded.list_date, discipline = excluded.discipline,
      lane_count = excluded.lane_count, starters_count = excluded.starters_count, last_seen_at = excluded.last_seen_at
    returning (xmax = 0) as inserted`;
  const check = push.boxCheck ?? null;
  const [signal]: [{ lastStarterlistSeenAt: Date | null }?] = await sql`
    insert into edge_box_signal as box (club_id, last_push_at, last_starterlist_seen_at, box_check_at, box_check_evening_start, box_check_hits_after)
    values (
      ${clubId}, now(), ${lists.length > 0 ? sql`now()` : null},
      ${check?.checkedAt ?? null}::timestamptz, ${check?.eveningStart ?? null}::timestamptz, ${check?.hitsAfterEvening ?? null}::boolean
    )
    on conflict (club_id) do update set
      last_push_at = excluded.last_push_at,
      last_starterlist_seen_at = coalesce(excluded.last_starterlist_seen_at, box.last_starterlist_seen_at),
      box_check_at = coalesce(excluded.box_check_at, box.box_check_at),
      box_check_evening_start = coalesce(excluded.box_check_evening_start, box.box_check_evening_start),
      box_check_hits_after = coalesce(excluded.box_check_hits_after, box.box_check_hits_after)
    returning last_starterlist_seen_at as "lastStarterlistSeenAt"`;
  return {
    received: lists.length,
    added: inserted.filter((row) => row.inserted).length,
    lastStarterlistSeenAt: signal?.lastStarterlistSeenAt?.toISOString() ?? null,
  };
}

/**
 * One starter-list push of a box: the lists and signal (recordStarterlists) and the consent it
 * reported, for the box's own club, in one transaction.
 */
export async function receiveStarterlistPush(
  sql: Sql,
  box: { clubId: string; tokenId: string },
  push: StarterlistPush,
): Promise<StarterlistPushResult> {
  return sql.begin(async (tx) => {
    const result = await recordStarterlists(tx, box.clubId, push);
    if (push.consent) await recordReportedConsent(tx, { clubId: box.clubId, tokenId: box.tokenId, report: push.consent });
    return result;
  });
}
