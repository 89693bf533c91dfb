import { EmailClient } from '@azure/communication-email';
import { startFakeAcsEmail, type FakeAcsEmail } from '../../development/acsEmailFake/server';
import { getSql } from '../../shared/db/client';
import { acsEmailSender } from '../../shared/notifications/channels/email/acsEmailSender';
import { deliverDueEmails, type DeliveryOptions } from '../../shared/notifications/channels/email/deliverEmails';
import { changeContact, confirmContact } from '../../shared/notifications/contactService';
import { deliveriesOf } from '../../shared/notifications/outbox/deliveryLog';
import { getUserSettings } from '../../shared/notifications/userSettings';
import { newMember, notifyAt } from './support';
import { useDeliveryTurn } from '../support/deliveryTurn';

// Its delivery run claims every due row up to its clock: the files that run one take turns.
useDeliveryTurn();

// Other files share the database and queue rows due around their own clocks (1999, 2026, now);
// this file's rows are all due in 1990 and its worker runs with a 1990 clock, so it claims only
// them, and it leaves none pending for another file's worker to find. Notifications here ask for
// email only: the push tests' worker runs with a 1995 clock and would claim a 1990 push row.
const T0 = new Date('1990-06-04T08:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let fake: FakeAcsEmail;
let options: (now: Date) => DeliveryOptions;

beforeAll(async () => {
  fake = await startFakeAcsEmail();
  const sender = acsEmailSender(new EmailClient(fake.connectionString, { allowInsecureConnection: true }), 'DoNotReply@mail.example.org');
  options = (now) => ({ sender, publicBaseUrl: 'https://clubs.example.org', senderName: 'SV Tell', now: () => now });
});
afterAll(async () => {
  await fake.close();
  await getSql()`update notification_outbox set status = 'cancelled' where status = 'pending' and deliver_after < '1991-01-01'`;
});

const mailsTo = (address: string) => fake.emails.filter((email) => email.to.includes(address));
const LINK = /https:\/\/clubs\.example\.org\/app\/#\/confirm-email\?token=([A-Za-z0-9_.%-]+)/;

/** The token of the link in the newest email to `address`. */
function tokenMailedTo(address: string): string {
  const match = LINK.exec(mailsTo(address).at(-1)?.plainText ?? '');
  if (!match?.[1]) throw new Error(`no confirmation link was mailed to ${address}`);
  return decodeURIComponent(match[1]);
}

describe('a contact email through the confirmation link (the email fake)', () => {
  it('mails the link to the new address in the member’s language, and the confirmed address then receives notifications', async () => {
    const userId = await newMember();
    const address = `${userId}@example.org`;
    await changeContact(getSql(), { userId }, { email: address, language: 'de' }, T0);
    expect((await deliverDueEmails(getSql(), options(at(1)))).sent).toBe(1);
    const [mail] = mailsTo(address);
    expect(mail?.subject).toBe('Bitte bestätigen Sie Ihre E-Mail-Adresse');
    expect(mail?.plainText).toContain('Der Link gilt 24 Stunden und nur einmal.');
    expect(mail?.html).toContain('href="https://clubs.example.org/app/#/confirm-email?token=');
    // Transactional: no unsubscribe link for an address that agreed to nothing yet.
    expect(mail?.headers['List-Unsubscribe']).toBeUndefined();
    // Only the token's hash is stored.
    const token = tokenMailedTo(address);
    const stored = await getSql()<
      { tokenHash: Buffer }[]
    >`select token_hash as "tokenHash" from user_contact_confirmation where user_id = ${userId}`;
    expect(stored.map((row) => row.tokenHash.toString('utf8'))).not.toContain(token);

    const confirmed = await confirmContact(getSql(), { userId }, token, at(60));
    expect(confirmed).toMatchObject({ email: address, emailConfirmed: true, pendingEmail: null });

    const { id } = await notifyAt(userId, { category: 'training', channels: ['email'] }, at(61));
    expect((await deliverDueEmails(getSql(), options(at(62)))).sent).toBe(1);
    expect(mailsTo(address).map((email) => email.subject)).toEqual(['Bitte bestätigen Sie Ihre E-Mail-Adresse', 'Training moved']);
    expect((await deliveriesOf(getSql(), userId, id)).items).toEqual([expect.objectContaining({ channel: 'email', outcome: 'sent' })]);
  });

  it('sends nothing to an address not confirmed yet: the delivery is skipped as email_unconfirmed', async () => {
    const userId = await newMember({ email: { enabled: true } });
    const address = `${userId}@example.org`;
    await changeContact(getSql(), { userId }, { email: address, language: 'en' }, at(100));
    const { id } = await notifyAt(userId, { category: 'training', channels: ['email'] }, at(100));
    const run = await deliverDueEmails(getSql(), options(at(101)));
    expect(run).toMatchObject({ sent: 1, skipped: 1 }); // the link was sent, the notification was not
    expect(mailsTo(address).map((email) => email.subject)).toEqual(['Please confirm your email address']);
    expect((await deliveriesOf(getSql(), userId, id)).items).toEqual([
      expect.objectContaining({ channel: 'email', outcome: 'skipped', reason: 'email_unconfirmed' }),
    ]);
  });

  it('does not send a link that was replaced before the worker got to it', async () => {
    const userId = await newMember();
    await changeContact(getSql(), { userId }, { email: `old-${userId}@example.org`, language: 'en' }, at(200));
    await changeContact(getSql(), { userId }, { email: `new-${userId}@example.org`, language: 'en' }, at(200));
    expect(await deliverDueEmails(getSql(), options(at(201)))).toMatchObject({ sent: 1, skipped: 1 });
    expect(mailsTo(`old-${userId}@example.org`)).toEqual([]);
    expect(mailsTo(`new-${userId}@example.org`)).toHaveLength(1);
  });
});

describe('what is kept of a link', () => {
  it('forgets a link and its address two days after it was sent, on the member’s next change', async () => {
    const userId = await newMember();
    await changeContact(getSql(), { userId }, { email: `typo-${userId}@example.org`, language: 'de' }, at(400));
    await changeContact(getSql(), { userId }, { email: `${userId}@example.org`, language: 'de' }, at(400 + 3 * 24 * 60));
    const rows = await getSql()<{ email: string }[]>`select email from user_contact_confirmation where user_id = ${userId}`;
    expect(rows.map((row) => row.email)).toEqual([`${userId}@example.org`]);
    await getSql()`update notification_outbox set status = 'cancelled' where user_id = ${userId} and status = 'pending'`;
  });
});

describe('email switches until an address is confirmed', () => {
  it('start off and say email is unavailable, and turn on with the confirmation for a member who never chose', async () => {
    const userId = `user-${crypto.randomUUID()}`;
    const before = await getUserSettings(getSql(), userId);
    expect(before).toMatchObject({ emailAvailable: false, emailEnabled: false, notifications: { email: { enabled: false } } });
    // A notification now queues no email at all.
    await notifyAt(userId, { channels: ['email'] }, at(300));
    const [queued] = await getSql()<{ count: number }[]>`
      select count(*)::int as count from notification_outbox where user_id = ${userId} and channel = 'email'`;
    expect(queued?.count).toBe(0);

    await changeContact(getSql(), { userId }, { email: `${userId}@example.org`, language: 'de' }, at(300));
    await deliverDueEmails(getSql(), options(at(301)));
    await confirmContact(getSql(), { userId }, tokenMailedTo(`${userId}@example.org`), at(302));
    expect(await getUserSettings(getSql(), userId)).toMatchObject({ emailAvailable: true, emailEnabled: true });
  });
});
