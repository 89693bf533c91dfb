import { EmailClient } from '@azure/communication-email';
import { startFakeAcsEmail, type FakeAcsEmail } from '../../development/acsEmailFake/server';
import { getSql } from '../../shared/db/client';
import { acsEmailSender } from '../../shared/notifications/channels/email/acsEmailSender';
import { deliverDueEmails } from '../../shared/notifications/channels/email/deliverEmails';
import { saveContact } from '../../shared/notifications/contactRepository';
import { listInbox } from '../../shared/notifications/inboxService';
import type { Message } from '../../shared/i18n/message';
import { newMember, notifyAt } from './support';
import { useDeliveryTurn } from '../support/deliveryTurn';

/**
 * Entries written from a catalogue message: the inbox shows them in the reader's language, email
 * in the recipient's stored language at send time; entries of fixed text read as they were written.
 */

// Its delivery run claims every due row up to its clock: the files that run one take turns.
useDeliveryTurn();

// Other files queue email due around their own clocks; this file's rows are due in 1992 only.
const T0 = new Date('1992-04-07T09:00:00.000Z');

const completed: Message = {
  key: 'challenges.result',
  params: { placement: 'completed', challenge: { de: 'Vereinspokal', en: 'Club cup' }, xp: 1500, badge: { de: 'Pokal', en: 'Cup' } },
};

async function inbox(userId: string, language: 'de' | 'en') {
  return (await listInbox(getSql(), userId, { limit: 10, unreadOnly: false, language })).items.map((item) => [item.title, item.body]);
}

let fake: FakeAcsEmail;
beforeAll(async () => {
  fake = await startFakeAcsEmail();
});
afterAll(async () => {
  await fake.close();
});

describe('notifications written from a message', () => {
  it('store the text in the recipient’s language and read in the reader’s', async () => {
    const userId = await newMember({}, { email: null, language: 'en' });
    await notifyAt(userId, { message: completed, title: undefined, body: undefined, kind: 'challenge', channels: [] }, T0);
    const [stored] = await getSql()<{ title: string; body: string }[]>`select title, body from notification where user_id = ${userId}`;
    expect(stored).toEqual({ title: 'Challenge completed: Club cup', body: 'You earned +1,500 XP and badge "Cup".' });
    expect(await inbox(userId, 'de')).toEqual([
      ['Challenge geschafft: Vereinspokal', 'Du hast +1.500 XP und das Abzeichen „Pokal“ verdient.'],
    ]);
    expect(await inbox(userId, 'en')).toEqual([['Challenge completed: Club cup', 'You earned +1,500 XP and badge "Cup".']]);
    // A request that names no language reads the stored one, then German.
    const unnamed = async (id: string) => (await listInbox(getSql(), id, { limit: 10, unreadOnly: false })).items.map((item) => item.title);
    expect(await unnamed(userId)).toEqual(['Challenge completed: Club cup']);
    await saveContact(getSql(), userId, { email: null, language: 'de' });
    expect(await unnamed(userId)).toEqual(['Challenge geschafft: Vereinspokal']);
  });

  it('keep older entries, and entries whose message is no longer known, readable as stored', async () => {
    const userId = await newMember();
    await notifyAt(userId, { title: 'Training moved', body: 'Now at 19:00.', channels: [] }, T0);
    await notifyAt(userId, { message: completed, title: undefined, body: undefined, kind: 'challenge', channels: [] }, T0);
    await getSql()`update notification set message_key = 'challenges.retired' where user_id = ${userId} and message_key is not null`;
    expect(await inbox(userId, 'en')).toEqual([
      ['Challenge geschafft: Vereinspokal', 'Du hast +1.500 XP und das Abzeichen „Pokal“ verdient.'],
      ['Training moved', 'Now at 19:00.'],
    ]);
  });

  it('refuse a message no catalogue knows, and write nothing', async () => {
    const userId = await newMember();
    await expect(
      notifyAt(userId, { message: { key: 'challenges.nonsense', params: {} }, title: undefined, body: undefined, channels: [] }, T0),
    ).rejects.toThrow('unknown notification message');
    await expect(
      notifyAt(
        userId,
        { message: { key: 'challenges.result', params: { xp: 'lots' } }, title: undefined, body: undefined, channels: [] },
        T0,
      ),
    ).rejects.toThrow('cannot render');
    expect(await inbox(userId, 'en')).toEqual([]);
  });

  it('send email in the language the recipient has stored when it goes out', async () => {
    const userId = await newMember();
    const email = `${userId}@example.org`;
    await saveContact(getSql(), userId, { email, language: 'de' });
    await notifyAt(
      userId,
      { message: completed, title: undefined, body: undefined, kind: 'challenge', category: 'training', channels: ['email'] },
      T0,
    );
    // The member switches to English before the delivery runs: the email follows.
    await saveContact(getSql(), userId, { email, language: 'en' });
    const sender = acsEmailSender(new EmailClient(fake.connectionString, { allowInsecureConnection: true }), 'DoNotReply@mail.example.org');
    await deliverDueEmails(getSql(), { sender, publicBaseUrl: 'https://clubs.example.org', senderName: 'SV Tell', now: () => T0 });
    const mails = fake.emails.filter((mail) => mail.to.includes(email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Challenge completed: Club cup']);
    expect(mails[0]?.plainText).toContain('You earned +1,500 XP and badge "Cup".');
  });
});
