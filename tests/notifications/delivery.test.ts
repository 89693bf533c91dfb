import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { EmailClient } from '@azure/communication-email';
import { startFakeAcsEmail, type FakeAcsEmail } from '../../development/acsEmailFake/server';
import { parseSomeSettings, type Settings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { acsEmailSender, emailSenderFromSettings } from '../../shared/notifications/channels/email/acsEmailSender';
import { saveContact } from '../../shared/notifications/contactRepository';
import { deliverDueEmails, operationIdOf, type DeliveryOptions } from '../../shared/notifications/channels/email/deliverEmails';
import { deliveriesOf, deliveryQueueSummary } from '../../shared/notifications/outbox/deliveryLog';
import type { EmailSender } from '../../shared/notifications/channels/email/emailSender';
import { claimDueEmails, dueRowsStatement } from '../../shared/notifications/outbox/outboxClaims';
import { backoffMs, DeliveryFailure, MAX_ATTEMPTS, MAX_BACKOFF_MS } from '../../shared/notifications/outbox/retryPolicy';
import { applyUnsubscribe, unsubscribeTokenParameter } from '../../shared/notifications/channels/email/unsubscribe';
import type { NotifyInput } from '../../shared/notifications/notify';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../shared/notifications/preferences';
import { loadSettings, savePreferences } from '../../shared/notifications/preferencesRepository';
import { newMember, notifyAt, twoInstancesAtOnce } from './support';
import { useDeliveryTurn } from '../support/deliveryTurn';

// Other test files share the database and queue rows due around their own clocks (2026); this
// file's rows are all due in 1999, and the worker runs with a 1999 clock, so it claims only them.
const T0 = new Date('1999-03-10T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

// The push files and the delivery contract run deliveries too: one at a time.
useDeliveryTurn();

let fake: FakeAcsEmail;
let sender: EmailSender;

beforeAll(async () => {
  fake = await startFakeAcsEmail();
  sender = acsEmailSender(new EmailClient(fake.connectionString, { allowInsecureConnection: true }), 'DoNotReply@mail.example.org');
});
afterAll(async () => {
  await fake.close();
});
beforeEach(async () => {
  // Leftovers of an earlier test of this file must not be claimed by the next one.
  await getSql()`update notification_outbox set status = 'cancelled' where status = 'pending' and channel = 'email' and deliver_after < '2000-01-01'`;
});

function options(now: Date, extra: Partial<DeliveryOptions> = {}): DeliveryOptions {
  return { sender, publicBaseUrl: 'https://clubs.example.org', senderName: 'SV Tell', now: () => now, ...extra };
}

async function member(patch: NotificationPreferencesPatch = {}, contact: { email?: string | null; language?: 'de' | 'en' } = {}) {
  const userId = await newMember(patch);
  const email = contact.email === undefined ? `${userId}@example.org` : contact.email;
  await saveContact(getSql(), userId, { email, language: contact.language ?? 'en' });
  return { userId, email };
}

const send = (userId: string, extra: Partial<NotifyInput> = {}, now = T0) => notifyAt(userId, { category: 'training', ...extra }, now);

const mailsTo = (address: string | null) => fake.emails.filter((email) => email.to.includes(address ?? ''));

async function outboxRows(userId: string) {
  return getSql()<{ id: string; status: string; attempts: number; lastError: string | null; deliverAfter: Date }[]>`
    select id::text as id, status, attempts, last_error as "lastError", deliver_after as "deliverAfter"
    from notification_outbox where user_id = ${userId} and channel = 'email' order by id`;
}

describe('sending due emails through Communication Services (the SDK against the wire fake)', () => {
  it('sends one email per due row with plain text, HTML, the one-click unsubscribe headers, and logs it beside the entry', async () => {
    const { userId, email } = await member();
    const { id } = await send(userId);
    const run = await deliverDueEmails(getSql(), options(at(1)));
    expect(run.sent).toBe(1);
    const [mail] = mailsTo(email);
    expect(mail?.subject).toBe('Training moved');
    expect(mail?.plainText).toContain('Now at 19:00.');
    expect(mail?.html).toContain('<h2>Training moved</h2>');
    expect(mail?.senderAddress).toBe('DoNotReply@mail.example.org');
    expect(mail?.headers['List-Unsubscribe']).toMatch(/^<https:\/\/clubs\.example\.org\/api\/notifications\/unsubscribe\?token=[^>]+>$/);
    expect(mail?.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail?.plainText).toContain('Stop emails of the category "Training"');
    expect((await outboxRows(userId)).map((row) => row.status)).toEqual(['sent']);
    const log = await deliveriesOf(getSql(), userId, id);
    expect(log.items).toEqual([expect.objectContaining({ channel: 'email', attempt: 1, outcome: 'sent', reason: null })]);
    expect(log.pending).toBe(1); // the push row waits for the push slice
  });

  it('writes German for a member whose language is German', async () => {
    const { userId, email } = await member({}, { language: 'de' });
    await send(userId, { category: 'club' });
    await deliverDueEmails(getSql(), options(at(1)));
    expect(mailsTo(email)[0]?.plainText).toContain('Keine E-Mails der Kategorie „Verein“ mehr erhalten');
    expect(mailsTo(email)[0]?.html).toContain('<html lang="de">');
  });

  it('does not send a row before it is due', async () => {
    const { userId, email } = await member();
    await send(userId, {}, at(10));
    expect((await deliverDueEmails(getSql(), options(at(9)))).sent).toBe(0);
    expect(mailsTo(email)).toHaveLength(0);
    expect((await deliverDueEmails(getSql(), options(at(10)))).sent).toBe(1);
  });

  it('two instances racing over the same rows send each row exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 30 }, () => member()));
    for (const { userId } of users) await send(userId);
    const before = fake.requests.sends;
    await twoInstancesAtOnce(() => deliverDueEmails(getSql(), options(at(1), { batch: 4, concurrency: 2 })), 30);
    expect(fake.requests.sends - before).toBe(30);
    for (const { email } of users) expect(mailsTo(email)).toHaveLength(1);
    const [log] = await getSql()<{ lines: number }[]>`
      select count(*)::int as lines from notification_delivery_log where user_id = any(${users.map((user) => user.userId)})`;
    expect(log?.lines).toBe(30);
  });

  it('a crash between sent and recorded resends under the same Operation-Id, which the provider answers without a second email', async () => {
    const { userId, email } = await member();
    await send(userId);
    // The first instance claims and sends, then dies before recording.
    const [claimed] = await claimDueEmails(getSql(), at(1), 10, 60_000);
    const crashed = await deliverDueEmails(getSql(), options(at(1)));
    expect(crashed.sent).toBe(0); // the claim hides the row from others while it is held
    await sender.send({
      operationId: operationIdFor([claimed!.id]),
      to: email ?? '',
      subject: 'x',
      plainText: 'x',
      html: 'x',
      headers: {},
    });
    expect(mailsTo(email)).toHaveLength(1);
    // The lease runs out; another instance sends the row again, under the same id.
    const retry = await deliverDueEmails(getSql(), options(at(3)));
    expect(retry.sent).toBe(1);
    expect(mailsTo(email)).toHaveLength(1);
    expect((await outboxRows(userId))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a refused address fails at once with the provider reason; a dropped email too', async () => {
    const rejected = await member({}, { email: 'reject.someone@example.org' });
    const dropped = await member({}, { email: 'drop.someone@example.org' });
    const { id } = await send(rejected.userId);
    await send(dropped.userId);
    const run = await deliverDueEmails(getSql(), options(at(1)));
    expect(run.failed).toBe(2);
    expect((await outboxRows(rejected.userId))[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await outboxRows(rejected.userId))[0]?.lastError).toMatch(/^InvalidEmailAddress: /);
    expect((await outboxRows(dropped.userId))[0]?.lastError).toMatch(/EmailDropped/);
    expect((await deliveriesOf(getSql(), rejected.userId, id)).items).toEqual([
      expect.objectContaining({ outcome: 'failed', reason: expect.stringMatching(/InvalidEmailAddress/) as unknown }),
    ]);
    const summary = await deliveryQueueSummary(getSql(), at(1));
    expect(summary.failuresByReason.map((failure) => failure.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^InvalidEmailAddress/), expect.stringMatching(/EmailDropped/)]),
    );
  });

  it('a poison row is retried with backoff, then failed with its reason, and never holds back the others', async () => {
    const poison = await member();
    const healthy = await member();
    await send(poison.userId, { title: 'poison' });
    const flaky: EmailSender = {
      send: (email) =>
        email.subject === 'poison' ? Promise.reject(new DeliveryFailure('transient', 'ServiceUnavailable: try later')) : sender.send(email),
    };
    let now = at(1);
    const first = await deliverDueEmails(getSql(), { ...options(now), sender: flaky, now: () => now });
    expect(first.retrying).toBe(1);
    await send(healthy.userId, {}, now);
    const [row] = await outboxRows(poison.userId);
    expect(row?.deliverAfter.getTime()).toBe(now.getTime() + backoffMs(1));
    // Before the backoff ends only the healthy row goes out.
    const second = await deliverDueEmails(getSql(), { ...options(now), sender: flaky, now: () => now });
    expect(second).toMatchObject({ sent: 1, retrying: 0 });
    expect(mailsTo(healthy.email)).toHaveLength(1);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      now = new Date(now.getTime() + backoffMs(attempt - 1));
      await deliverDueEmails(getSql(), { ...options(now), sender: flaky, now: () => now });
    }
    expect((await outboxRows(poison.userId))[0]).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastError: 'ServiceUnavailable: try later',
    });
    now = new Date(now.getTime() + 7 * 24 * 3_600_000);
    expect((await deliverDueEmails(getSql(), { ...options(now), sender: flaky, now: () => now })).emails).toBe(0);
  });

  it('an unexpected error in one message is retried like a transient failure and names no data', async () => {
    const { userId } = await member();
    await send(userId);
    const broken: EmailSender = { send: () => Promise.reject(new TypeError('cannot read secret@example.org')) };
    expect((await deliverDueEmails(getSql(), options(at(1), { sender: broken }))).retrying).toBe(1);
    expect((await outboxRows(userId))[0]?.lastError).toBe('internal_error: TypeError');
  });

  it('skips, and says why, when email was switched off after queueing or the member has no address', async () => {
    const switchedOff = await member();
    const noAddress = await member({}, { email: null });
    const { id } = await send(switchedOff.userId);
    await send(noAddress.userId);
    await savePreferences(getSql(), switchedOff.userId, mergePreferences(defaultPreferences(), { email: { enabled: false } }));
    const run = await deliverDueEmails(getSql(), options(at(1)));
    expect(run.skipped).toBe(2);
    expect(mailsTo(switchedOff.email)).toHaveLength(0);
    expect((await deliveriesOf(getSql(), switchedOff.userId, id)).items[0]).toMatchObject({ outcome: 'skipped', reason: 'email_disabled' });
    expect((await outboxRows(noAddress.userId))[0]).toMatchObject({ status: 'cancelled', lastError: 'no_email_address' });
    // The operator's summary counts skips per channel and reason, not only failures.
    const { outcomes } = await deliveryQueueSummary(getSql(), at(1));
    for (const reason of ['email_disabled', 'no_email_address']) {
      expect(outcomes).toContainEqual({ channel: 'email', outcome: 'skipped', reason, count: expect.any(Number) as unknown });
    }
  });
});

describe('throttling by Communication Services (429 with Retry-After, through the sender the settings build)', () => {
  // The production sender (its client carries the policy that keeps the SDK from waiting a
  // Retry-After out): without it a throttled send would hold the batch for the whole Retry-After.
  const throttledSender = () =>
    emailSenderFromSettings(
      parseSomeSettings(['NOTIFY_EMAIL_SENDER_ADDRESS', 'NOTIFY_EMAIL_CONNECTION', 'NOTIFY_EMAIL_ENDPOINT'], {
        NOTIFY_EMAIL_SENDER_ADDRESS: 'DoNotReply@mail.example.org',
        NOTIFY_EMAIL_CONNECTION: fake.connectionString,
      }) as Settings,
    ) as EmailSender;

  it('parks only the throttled email until its Retry-After, sends the rest of the batch, then sends it once', async () => {
    const production = throttledSender();
    const [first, second, third] = [await member(), await member(), await member()];
    for (const { userId } of [first, second, third]) await send(userId);
    fake.throttleNextSends(1, '300');
    const sendsBefore = fake.requests.sends;
    const now = at(1);
    // One at a time, so the first email (the oldest row) is the one the provider throttles.
    const run = await deliverDueEmails(getSql(), options(now, { sender: production, concurrency: 1 }));
    expect(run).toMatchObject({ emails: 3, sent: 2, retrying: 1 });
    // One request for the throttled email: the SDK did not try it again by itself.
    expect(fake.requests.sends - sendsBefore).toBe(3);
    expect(mailsTo(second.email)).toHaveLength(1);
    expect(mailsTo(third.email)).toHaveLength(1);
    const [row] = await outboxRows(first.userId);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row?.lastError).toMatch(/^TooManyRequests: /);
    expect(row?.deliverAfter.getTime()).toBe(now.getTime() + 300_000);

    const justBefore = new Date(now.getTime() + 299_000);
    expect((await deliverDueEmails(getSql(), options(justBefore, { sender: production }))).emails).toBe(0);
    const then = new Date(now.getTime() + 300_000);
    expect(await deliverDueEmails(getSql(), options(then, { sender: production }))).toMatchObject({ emails: 1, sent: 1 });
    expect(mailsTo(first.email)).toHaveLength(1);
    expect((await outboxRows(first.userId))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it.each([
    {
      name: 'an absurd number of seconds is clamped to the longest backoff',
      retryAfter: () => '999999999',
      min: MAX_BACKOFF_MS,
      max: MAX_BACKOFF_MS,
    },
    { name: '0 waits the backoff, not at once', retryAfter: () => '0', min: backoffMs(1), max: backoffMs(1) },
    { name: 'an HTTP-date two minutes ahead', retryAfter: () => new Date(Date.now() + 120_000).toUTCString(), min: 118_000, max: 120_000 },
  ])('Retry-After: $name', async ({ retryAfter, min, max }) => {
    const { userId, email } = await member();
    await send(userId);
    fake.throttleNextSends(1, retryAfter());
    const now = at(1);
    expect(await deliverDueEmails(getSql(), options(now, { sender: throttledSender() }))).toMatchObject({ retrying: 1 });
    expect(mailsTo(email)).toHaveLength(0);
    const wait = ((await outboxRows(userId))[0]?.deliverAfter.getTime() ?? 0) - now.getTime();
    expect(wait).toBeGreaterThanOrEqual(min);
    expect(wait).toBeLessThanOrEqual(max);
  });
});

describe('each email preference changes what is delivered (notify, then the worker, through the fake)', () => {
  const cases: { name: string; patch: NotificationPreferencesPatch; input: Partial<NotifyInput>; emails: number }[] = [
    { name: 'email on', patch: {}, input: {}, emails: 1 },
    { name: 'email off', patch: { email: { enabled: false } }, input: {}, emails: 0 },
    { name: 'email off, critical', patch: { email: { enabled: false } }, input: { critical: true }, emails: 0 },
    ...(['training', 'competition', 'board', 'youth', 'club'] as const).flatMap((category) => [
      { name: `category ${category} on`, patch: {}, input: { category }, emails: 1 },
      { name: `category ${category} off`, patch: { email: { categories: { [category]: false } } }, input: { category }, emails: 0 },
    ]),
    { name: 'events off', patch: { email: { events: false } }, input: { kind: 'event' }, emails: 0 },
    { name: 'invites off', patch: { email: { invites: false } }, input: { kind: 'invite' }, emails: 0 },
    { name: 'reminder by email off (default)', patch: {}, input: { kind: 'reminder', reminderLead: 'hour1' }, emails: 0 },
    {
      name: 'reminder by email on',
      patch: { reminders: { viaEmail: true } },
      input: { kind: 'reminder', reminderLead: 'hour1' },
      emails: 1,
    },
    {
      name: 'reminder lead 15 min off',
      patch: { reminders: { viaEmail: true } },
      input: { kind: 'reminder', reminderLead: 'minutes15' },
      emails: 0,
    },
    {
      name: 'reminder lead 24 h on',
      patch: { reminders: { viaEmail: true, hours24: true } },
      input: { kind: 'reminder', reminderLead: 'hours24' },
      emails: 1,
    },
    { name: 'summary daily holds the email', patch: { summary: { mode: 'daily' } }, input: {}, emails: 0 },
  ];
  it.each(cases)('$name: $emails email(s) now', async ({ patch, input, emails }) => {
    const { userId, email } = await member(patch);
    await send(userId, input);
    await deliverDueEmails(getSql(), options(at(1)));
    expect(mailsTo(email)).toHaveLength(emails);
  });
});

describe('summaries', () => {
  it.each([
    // 1999-03-10 is a Wednesday; Berlin is on CET (UTC+1) until 28 March.
    { mode: 'daily' as const, due: '1999-03-11T06:30:00.000Z', subject: 'Your daily summary: 3 notifications' },
    { mode: 'weekly' as const, due: '1999-03-15T06:30:00.000Z', subject: 'Your weekly summary: 3 notifications' },
    // The 1st of April is after the change to CEST (UTC+2): 07:30 local is 05:30 UTC.
    { mode: 'monthly' as const, due: '1999-04-01T05:30:00.000Z', subject: 'Your monthly summary: 3 notifications' },
  ])(
    '$mode: one email listing the held notifications at the summary time, all rows marked sent together',
    async ({ mode, due, subject }) => {
      const { userId, email } = await member({ summary: { mode, time: '07:30' } });
      for (const title of ['First', 'Second', 'Third']) await send(userId, { title });
      const justBefore = new Date(new Date(due).getTime() - 1000);
      expect((await deliverDueEmails(getSql(), options(justBefore))).emails).toBe(0);
      const run = await deliverDueEmails(getSql(), options(new Date(due), { batch: 2 }));
      expect(run).toMatchObject({ emails: 1, sent: 3 });
      const [mail] = mailsTo(email);
      expect(mail?.subject).toBe(subject);
      expect(mail?.plainText).toMatch(/First[\s\S]*Second[\s\S]*Third/);
      expect(mail?.plainText).toContain('Stop all notification emails');
      expect((await outboxRows(userId)).map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
    },
  );
});

describe('one-click unsubscribe', () => {
  const tokenOf = (header: string | undefined) => decodeURIComponent(/token=([^>]+)>$/.exec(header ?? '')?.[1] ?? '');

  it('the link of a category email switches that category off, and nothing else', async () => {
    const { userId, email } = await member();
    await send(userId, { category: 'youth' });
    await deliverDueEmails(getSql(), options(at(1)));
    const parsed = v.safeParse(unsubscribeTokenParameter, tokenOf(mailsTo(email)[0]?.headers['List-Unsubscribe']));
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    await applyUnsubscribe(getSql(), parsed.output);
    const { preferences } = await loadSettings(getSql(), userId);
    expect(preferences.email.categories).toEqual({ training: true, competition: true, board: true, youth: false, club: true });
    expect(preferences.email.enabled).toBe(true);
    // What is queued for that category afterwards is no longer emailed.
    await send(userId, { category: 'youth' }, at(2));
    await deliverDueEmails(getSql(), options(at(3)));
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('the link of a summary switches all notification emails off', async () => {
    const { userId, email } = await member({ summary: { mode: 'daily', time: '07:30' } });
    await send(userId);
    await deliverDueEmails(getSql(), options(new Date('1999-03-11T06:30:00.000Z')));
    const parsed = v.parse(unsubscribeTokenParameter, tokenOf(mailsTo(email)[0]?.headers['List-Unsubscribe']));
    await applyUnsubscribe(getSql(), parsed);
    expect((await loadSettings(getSql(), userId)).preferences.email.enabled).toBe(false);
  });

  it('refuses a forged, altered or foreign token', async () => {
    const { email, userId } = await member();
    await send(userId);
    await deliverDueEmails(getSql(), options(at(1)));
    const token = tokenOf(mailsTo(email)[0]?.headers['List-Unsubscribe']);
    const [payload, tag] = token.split('.');
    const otherUser = Buffer.from(JSON.stringify({ u: 'someone-else', c: null })).toString('base64url');
    for (const bad of [`${otherUser}.${tag}`, `${payload}.${'A'.repeat(tag?.length ?? 22)}`, 'not-a-token', '', `${token}x`]) {
      expect(v.safeParse(unsubscribeTokenParameter, bad).success).toBe(false);
    }
  });
});

describe('the delivery queue summary (diagnostics)', () => {
  it('counts the pending and due rows of every channel, not only email, and the oldest due row of all', async () => {
    const now = new Date('1999-06-01T12:00:00.000Z');
    // One snapshot for before and after, so rows other test files queue meanwhile do not count.
    await getSql()
      .begin('isolation level repeatable read', async (tx) => {
        const before = await deliveryQueueSummary(tx, now);
        const user = `queue-${randomUUID()}`;
        await tx`
          insert into notification_outbox (user_id, channel, deliver_after, title, tone, status)
          values (${user}, 'email', '1999-06-01T11:00:00Z', 't', 'info', 'pending'),
                 (${user}, 'email', '1999-06-01T11:30:00Z', 't', 'info', 'pending'),
                 (${user}, 'email', '1999-06-02T07:30:00Z', 't', 'info', 'pending'),
                 (${user}, 'push', '1971-01-01T00:00:00Z', 't', 'info', 'pending'),
                 (${user}, 'push', '1999-06-01T11:59:00Z', 't', 'info', 'pending'),
                 (${user}, 'push', '1999-06-01T11:00:00Z', 't', 'info', 'sent'),
                 (${user}, 'push', '1999-06-03T00:00:00Z', 't', 'info', 'pending')`;
        const after = await deliveryQueueSummary(tx, now);
        const channel = (summary: typeof after, name: string) =>
          summary.byChannel.find((row) => row.channel === name) ?? { pending: 0, due: 0, oldestDueAt: null };
        expect(channel(after, 'email').pending - channel(before, 'email').pending).toBe(3);
        expect(channel(after, 'email').due - channel(before, 'email').due).toBe(2);
        expect(channel(after, 'push').pending - channel(before, 'push').pending).toBe(3);
        expect(channel(after, 'push').due - channel(before, 'push').due).toBe(2);
        expect(after.due - before.due).toBe(4);
        expect(after.pending - before.pending).toBe(6);
        expect(after.due).toBe(after.byChannel.reduce((sum, row) => sum + row.due, 0));
        // The push due since 1971 is older than anything another test queues.
        expect(channel(after, 'push').oldestDueAt).toBe('1971-01-01T00:00:00.000Z');
        expect(after.oldestDueAt).toBe('1971-01-01T00:00:00.000Z');
        throw new RollbackForTest();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollbackForTest)) throw error;
      });
  });
});

describe('the claim query', () => {
  it('stays an index scan on the due index as the outbox grows, for email and push', async () => {
    await getSql()
      .begin(async (tx) => {
        await tx`
        insert into notification_outbox (user_id, channel, deliver_after, title, tone, status)
        select 'bulk-' || (i % 500), case when i % 2 = 0 then 'email' else 'push' end, '1990-01-01'::timestamptz + i * interval '1 second', 't', 'info',
               case when i % 10 = 0 then 'pending' else 'sent' end
        from generate_series(1, 50000) as i`;
        await tx`analyze notification_outbox`;
        // The statement the worker runs, for both channels.
        for (const channel of ['email', 'push'] as const) {
          const plan = await tx`explain ${dueRowsStatement(tx, channel, new Date('1999-01-01T00:00:00Z'), 200)}`;
          const text = plan.map((row) => String(Object.values(row)[0])).join('\n');
          expect(text).toMatch(/Index Scan using notification_outbox_due_channel_idx/);
          expect(text).not.toMatch(/Seq Scan|Sort/);
        }
        throw new RollbackForTest();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollbackForTest)) throw error;
      });
  });
});

describe('the claim order', () => {
  it('takes rows that fell due at the same moment oldest first, also where their ids gain a digit', async () => {
    await getSql()
      .begin(async (tx) => {
        // Long past, so no other file's due rows come first; one moment for all, as a quiet hour's end gives.
        // Ids across a power of ten, where text order and number order part; far above the sequence's.
        await tx`
          insert into notification_outbox (id, user_id, channel, deliver_after, title, tone)
          overriding system value
          select 1000000000000000 + i, ${`order-${randomUUID()}`}, 'email', '1980-01-01T07:00:00Z', 'Training moved', 'info'
          from generate_series(-6, 5) as i`;
        const claimed = await dueRowsStatement(tx, 'email', new Date('1980-01-02T00:00:00Z'), 12);
        expect(claimed.map((row) => row.id)).toEqual(Array.from({ length: 12 }, (_, index) => String(999999999999994 + index)));
        throw new RollbackForTest();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RollbackForTest)) throw error;
      });
  });
});

class RollbackForTest extends Error {}

/** The same derivation the worker uses, so the test can play the crashed instance. */
function operationIdFor(ids: string[]): string {
  return operationIdOf(ids.map((id) => ({ id })));
}
