import type { Sql, TransactionSql } from '../db/client';
import { NotFoundError } from '../errors/domainErrors';

/**
 * "Forget me": every row of the database that belongs to a person, erased in one transaction
 * (docs/clubs.md, Personal data). This file is the one list of where a user id is stored:
 * tests/people/erasure.e2e.test.ts reads the database's columns and fails for a column that names a
 * person (user_id, *_user_id, *_by, …) and is neither erased by here nor in SKIPPED_COLUMNS with
 * its reason. The club's shot data (club_data_*) names shooters of the club software, never a user id,
 * and is not touched.
 */

/** What happens to the rows in which a column names the person. */
type Erasure =
  /** The row is the person's: it goes. */
  | { table: string; column: string; erase: 'row'; reason?: undefined }
  /** The row is someone else's (the club's): it stays, without the person's id. */
  | { table: string; column: string; erase: 'id'; reason: string };

/** The person's own rows in `tables`, found by their `user_id`: the most common case by far. */
function ownRows(...tables: string[]): Erasure[] {
  return tables.map((table) => ({ table, column: 'user_id', erase: 'row' }));
}

/**
 * In order: a row goes before the rows it depends on would (the outbox before the inbox entry,
 * badges before participations), so no foreign key's cascade decides what is erased.
 */
export const ERASED_COLUMNS: readonly Erasure[] = [
  // Notifications: deliveries and their log, queued ones included, then the inbox and its count;
  // the person's settings, contact details and push registrations.
  ...ownRows('notification_delivery_log', 'notification_outbox', 'notification', 'notification_unread_count'),
  ...ownRows('user_settings', 'user_contact_confirmation', 'user_contact', 'push_registration'),
  // Challenges: reminders, streak warnings, badges, attempts, XP and the preferences.
  ...ownRows('challenge_end_reminder', 'challenge_streak_warning', 'challenge_user_badge', 'challenge_participation'),
  // The adaptive personal templates made for the person (and whatever hangs on them).
  { table: 'challenge', column: 'personalized_for_user_id', erase: 'row' },
  {
    table: 'challenge',
    column: 'created_by',
    erase: 'id',
    reason: 'a club or global challenge stays with the club and its participants; who wrote it is forgotten',
  },
  ...ownRows('xp_ledger', 'xp_season_total', 'xp_total'),
  ...ownRows('challenge_sharing_preference', 'challenge_badge_preference', 'challenge_shooter_link'),
  {
    table: 'challenge_shooter_link',
    column: 'decided_by',
    erase: 'id',
    reason: "another member's confirmed link stays (their progress reads it); which leader decided it is forgotten",
  },
  // Clubs: invitations the person made (their codes stop working) or used, the memberships and
  // leader roles, and who last changed a club's training plan.
  { table: 'club_invitation', column: 'created_by', erase: 'row' },
  { table: 'club_invitation', column: 'used_by', erase: 'row' },
  ...ownRows('club_membership'),
  { table: 'club_training_plan', column: 'updated_by', erase: 'id', reason: "the plan is the club's; who last changed it is forgotten" },
  // Last, so a failure above leaves the person findable by the operators for another attempt.
  ...ownRows('person_profile'),
];

/** Columns whose name looks like a person's id that the erasure does not search by, each with why. */
export const SKIPPED_COLUMNS: readonly { table: string; column: string; reason: string }[] = [
  {
    table: 'challenge',
    column: 'personalization_key',
    reason: '`userId:metric` of an adaptive template made for the person: the row goes by personalized_for_user_id',
  },
  { table: 'club_consent', column: 'reported_by_token_id', reason: "an edge token's id: the club's box, not a person" },
  { table: 'club_consent_audit', column: 'reported_by_token_id', reason: "an edge token's id: the club's box, not a person" },
];

/**
 * Erases everything stored about `userId` in one transaction; answers how many rows went or lost
 * the id (0: nothing was stored about them).
 */
export async function erasePerson(sql: Sql, userId: string): Promise<number> {
  return sql.begin(async (tx) => {
    // The XP ledger refuses every update and delete but this person's, in this transaction
    // (live/xp_ledger_append_only.sql): payouts stay append-only for everyone else.
    await tx`select set_config('people.erasing', ${userId}, true)`;
    let changed = 0;
    for (const step of ERASED_COLUMNS) changed += await eraseColumn(tx, step, userId);
    return changed;
  });
}

/** The operators' erasure of someone who asked by letter or email: a 404 when nothing was stored about them. */
export async function eraseKnownPerson(sql: Sql, userId: string): Promise<void> {
  if ((await erasePerson(sql, userId)) === 0) {
    throw new NotFoundError('Nothing is stored about this user id.', { code: 'person_not_found' });
  }
}

async function eraseColumn(tx: TransactionSql, step: Erasure, userId: string): Promise<number> {
  const result =
    step.erase === 'row'
      ? await tx`delete from ${tx(step.table)} where ${tx(step.column)} = ${userId}`
      : await tx`update ${tx(step.table)} set ${tx(step.column)} = null where ${tx(step.column)} = ${userId}`;
  return result.count;
}
