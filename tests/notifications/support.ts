import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { saveContact, type Contact } from '../../shared/notifications/contactRepository';
import { notify, type NotifyInput } from '../../shared/notifications/notify';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../shared/notifications/preferences';
import { savePreferences } from '../../shared/notifications/preferencesRepository';

/** A new member in Berlin with the defaults changed by `patch`, and the contact details when given. */
export async function newMember(patch: NotificationPreferencesPatch = {}, contact?: Pick<Contact, 'email' | 'language'>): Promise<string> {
  const userId = `user-${randomUUID()}`;
  await savePreferences(getSql(), userId, mergePreferences(defaultPreferences(), patch), 'Europe/Berlin');
  if (contact) await saveContact(getSql(), userId, contact);
  return userId;
}

/** notify() for `userId` in a transaction of its own, at `now`: a moved training unless `input` says otherwise. */
export function notifyAt(userId: string, input: Partial<NotifyInput>, now: Date) {
  return getSql().begin((tx) =>
    notify(tx, { userId, title: 'Training moved', body: 'Now at 19:00.', tone: 'info', kind: 'member', source: 'test', ...input }, now),
  );
}

/**
 * Two delivery runs at once over the same due rows, as two instances of the worker would: between
 * them they send `rows` rows, and each sends some (the claims split the work rather than one waiting).
 */
export async function twoInstancesAtOnce(run: () => Promise<{ sent: number }>, rows: number): Promise<void> {
  const [first, second] = await Promise.all([run(), run()]);
  expect(first.sent + second.sent).toBe(rows);
  expect(first.sent).toBeGreaterThan(0);
  expect(second.sent).toBeGreaterThan(0);
}
