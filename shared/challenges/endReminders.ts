import type { Sql } from '../db/client';
import type { LocalizedText } from '../i18n/localizedText';
import { bothLanguages } from '../i18n/localizedText';
import { notify } from '../notifications/notify';

/** How long before a participation's deadline its member is reminded. */
export const END_REMINDER_LEAD_MS = 24 * 3_600_000;
const BATCH = 200;

interface DueReminder {
  challengeId: string;
  userId: string;
  deadlineAt: Date;
  title: string;
  titles: LocalizedText;
}

/**
 * Reminds every member whose active participation ends within the next 24 hours, once per
 * challenge and member: the reminder row (challenge_end_reminder) and the notification are written
 * in one transaction, and only where the row was new, so concurrent runs, a member who left and
 * joined again, and later runs never remind twice. Run by the expiry timer; answers how many were
 * reminded.
 */
export async function remindEndingChallenges(sql: Sql, now: Date = new Date()): Promise<number> {
  let reminded = 0;
  for (;;) {
    const count = await sql.begin(async (tx) => {
      const due = await tx<DueReminder[]>`
        with due as (
          select p.challenge_id, p.user_id, p.deadline_at from challenge_participation p
          where p.status = 'active' and p.deadline_at > ${now} and p.deadline_at <= ${new Date(now.getTime() + END_REMINDER_LEAD_MS)}
            and not exists (select 1 from challenge_end_reminder r where r.challenge_id = p.challenge_id and r.user_id = p.user_id)
          order by p.deadline_at, p.id
          limit ${BATCH}
        ), sent as (
          insert into challenge_end_reminder (challenge_id, user_id, sent_at)
          select challenge_id, user_id, ${now} from due
          on conflict do nothing
          returning challenge_id, user_id
        )
        select sent.challenge_id as "challengeId", sent.user_id as "userId", due.deadline_at as "deadlineAt", c.title, c.titles
        from sent join due using (challenge_id, user_id) join challenge c on c.id = sent.challenge_id`;
      for (const reminder of due) {
        await notify(
          tx,
          {
            userId: reminder.userId,
            message: {
              key: 'challenges.endsSoon',
              params: { challenge: bothLanguages(reminder.titles, reminder.title), endsAt: reminder.deadlineAt.toISOString() },
            },
            tone: 'info',
            kind: 'reminder',
            reminderLead: 'hours24',
            category: 'training',
            source: 'challenges',
            // Held by quiet hours or a summary past the end, it would be useless: it goes out at once then.
            expiresAt: reminder.deadlineAt,
          },
          now,
        );
      }
      return due.length;
    });
    reminded += count;
    if (count < BATCH) return reminded;
  }
}
