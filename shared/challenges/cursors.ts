import * as v from 'valibot';
import { cursorCodec } from '../paging/cursor';
import { MicroTimestampSchema } from '../paging/microTimestamp';

/** The keyset positions of the challenge lists, signed by shared/paging (a forged position is a 400). */

const IdSchema = v.pipe(v.string(), v.nonEmpty(), v.maxLength(64));

/** Position after which the next page of templates starts: [created_at with microseconds, id]. */
export const challengeListCursor = cursorCodec('challenges.list', v.tuple([MicroTimestampSchema, IdSchema]));

/** Position after which the next page of a board starts: [score, reachedAt, id, rank of that row]. */
export const LeaderboardCursorSchema = v.tuple([
  v.pipe(v.string(), v.regex(/^-?\d{1,10}(\.\d{1,2})?$/)),
  MicroTimestampSchema,
  v.pipe(v.string(), v.maxLength(64)),
  v.pipe(v.number(), v.integer(), v.minValue(0)),
]);
export type LeaderboardCursor = v.InferOutput<typeof LeaderboardCursorSchema>;

export const leaderboardCursor = cursorCodec('challenges.leaderboard', LeaderboardCursorSchema);

/** Position after which the next page of an XP ladder starts: [xp, userId, rank of that row]. */
export const ladderCursor = cursorCodec(
  'challenges.ladder',
  v.tuple([
    v.pipe(v.number(), v.integer(), v.minValue(0)),
    v.pipe(v.string(), v.maxLength(200)),
    v.pipe(v.number(), v.integer(), v.minValue(0)),
  ]),
);
