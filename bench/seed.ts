import { upsertChallenge } from '../shared/challenges/challengeRepository';
import type { ChallengeView } from '../shared/challenges/model';
import type { Sql } from '../shared/db/client';
import { challengeDraft, type ChallengeDraftOverrides } from '../tests/support/challengeDraft';

/**
 * `entries` unread inbox entries of `userId`, one minute apart, in one statement; straight into
 * the table, bypassing notify and its INBOX_CAP. A third have no body; the tones take turns.
 */
export async function seedInbox(sql: Sql, userId: string, entries: number): Promise<void> {
  await sql`
    insert into notification (user_id, title, body, tone, kind, category, source, created_at)
    select ${userId}, 'Entry ' || n, case when n % 3 = 0 then null else 'Body of entry ' || n end,
           (array['info', 'success', 'warning', 'error'])[1 + n % 4], 'member', 'club', 'bench',
           now() - make_interval(mins => ${entries} - n)
    from generate_series(1, ${entries}) as n`;
}

/** The challenge a board benchmark fills: 500 XP for 1,000 shots, created by `bench`. */
export function benchChallenge(sql: Sql, overrides: ChallengeDraftOverrides): Promise<ChallengeView> {
  return upsertChallenge(
    sql,
    challengeDraft({ rewardXp: 500, rules: { goal: { metric: 'shots', target: 1000 } }, createdBy: 'bench', ...overrides }),
  );
}
