import type { Queryable, TransactionSql } from '../db/client';
import { notify } from '../notifications/notify';
import type { ClubMessage } from '../i18n/clubTexts';

/** What kind of notification each membership message is: an invitation's use is governed by the invites switch. */
const KINDS: Record<ClubMessage, 'member' | 'invite'> = {
  joined: 'member',
  invitationAccepted: 'invite',
  removed: 'member',
  madeLeader: 'member',
};

/**
 * Tells `userId` about a change of their club membership, through the one producer path, inside
 * the transaction that made the change: the notice exists exactly when the change does. The
 * message names the club by its name and is rendered in the reader's language (texts.ts).
 */
export async function noticeMembership(tx: TransactionSql, message: ClubMessage, clubId: string, userId: string): Promise<void> {
  await notify(tx, {
    userId,
    message: { key: `clubs.${message}`, params: { club: await clubName(tx, clubId) } },
    tone: message === 'removed' ? 'warning' : 'info',
    kind: KINDS[message],
    category: 'club',
    source: 'clubs',
  });
}

async function clubName(sql: Queryable, clubId: string): Promise<string> {
  const [club]: [{ name: string }?] = await sql`select name from club where id = ${clubId}`;
  return club?.name ?? clubId;
}
