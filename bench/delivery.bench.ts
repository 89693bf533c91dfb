import { performance } from 'node:perf_hooks';
import { EmailClient } from '@azure/communication-email';
import webPush from 'web-push';
import { startFakeAcsEmail } from '../development/acsEmailFake/server';
import { readFakeTls } from '../development/costsFake/certificate';
import { startFakeNotificationHubs } from '../development/pushFakes/notificationHubsFake';
import { startFakeWebPush } from '../development/pushFakes/webPushFake';
import type { Sql } from '../shared/db/client';
import { acsEmailSender } from '../shared/notifications/delivery/acsEmailSender';
import { saveContact } from '../shared/notifications/delivery/contactRepository';
import { deliverDueEmails } from '../shared/notifications/delivery/deliverEmails';
import { claimDue } from '../shared/notifications/delivery/outboxClaims';
import { CLAIM_LEASE_MS } from '../shared/notifications/delivery/retryPolicy';
import { deliverDuePushes } from '../shared/notifications/push/deliverPushes';
import { notificationHubChannel } from '../shared/notifications/push/notificationHubChannel';
import type { PushChannels } from '../shared/notifications/push/pushChannels';
import { registerPush } from '../shared/notifications/push/pushRegistrations';
import { webPushChannel } from '../shared/notifications/push/webPushChannel';
import type { BenchContext } from './context';
import type { Comparison, Measured } from './harness';

const ROWS = 10_000;
const EMAIL_USERS = 5_000;
const WEB_PUSH_USERS = 4_000;
const APP_USERS = 1_000;
const ITERATIONS = 3;
const CONCURRENCY = 32;

/**
 * Draining 10,000 due outbox rows (5,000 emails through the Communication Services fake, 4,000
 * Web Pushes through the push service fake, 1,000 app pushes through the Notification Hubs fake,
 * one row per member) with the delivery worker, against a bare claim-and-update of the same rows
 * in the same run: the same claim query (SKIP LOCKED, lease) followed by an UPDATE to `sent`,
 * nothing sent. The ratio says what sending costs on top of the queue itself. Each iteration
 * seeds fresh rows (untimed); the two sides alternate which goes first.
 *
 * The fakes run in the bench process and share its CPU with the worker: every email is a signed
 * POST and a poll, every Web Push an ECDH key agreement, AES-GCM encryption and an ES256 VAPID
 * signature on the sender's side and the matching decryption and verification on the fake's.
 */
export default async function delivery({ sql }: BenchContext): Promise<Comparison> {
  const caFile = process.env['NODE_EXTRA_CA_CERTS'];
  if (!caFile) throw new Error('the delivery bench needs the local certificate trusted (bench/run.ts sets it up)');
  const tls = readFakeTls(caFile);
  const email = await startFakeAcsEmail({ runningPolls: 0, keep: 100 });
  const hub = await startFakeNotificationHubs({ tls, keep: 100 });
  const browsers = await startFakeWebPush({ tls, keep: 100 });
  try {
    const vapid = { subject: 'mailto:bench@example.org', ...webPush.generateVAPIDKeys() };
    const channels: PushChannels = {
      web: { channel: webPushChannel(vapid), publicKey: vapid.publicKey, allowedHosts: ['127.0.0.1'] },
      mobile: notificationHubChannel({ connectionString: hub.connectionString, hubName: hub.hubName }),
    };
    const sender = acsEmailSender(
      new EmailClient(email.connectionString, { allowInsecureConnection: true }),
      'DoNotReply@bench.example.org',
    );
    const emailUsers = Array.from({ length: EMAIL_USERS }, (_, index) => `bench-email-${index}`);
    const pushUsers = Array.from({ length: WEB_PUSH_USERS + APP_USERS }, (_, index) => `bench-push-${index}`);
    for (const userId of emailUsers) await saveContact(sql, userId, { email: `${userId}@bench.example.org`, language: 'en' });
    for (const [index, userId] of pushUsers.entries()) {
      const body =
        index < WEB_PUSH_USERS
          ? { platform: 'webpush' as const, subscription: browsers.subscribe(vapid.publicKey) }
          : { platform: 'fcmv1' as const, deviceToken: `bench-fcm-token-${index}-${'x'.repeat(30)}` };
      await registerPush(sql, channels, userId, body);
    }

    const baseline: number[] = [];
    const subject: number[] = [];
    const drain = {
      baseline: () => claimAndMarkSent(sql),
      subject: async () => {
        const options = { concurrency: CONCURRENCY, batch: 200, maxRounds: 1_000 };
        const [emails, pushes] = await Promise.all([
          deliverDueEmails(sql, { sender, publicBaseUrl: 'https://bench.example.org', senderName: 'Bench', ...options }),
          deliverDuePushes(sql, { channels, ...options }),
        ]);
        const sent = emails.sent + pushes.sent;
        if (sent !== ROWS) throw new Error(`the worker sent ${sent} of ${ROWS} rows (${JSON.stringify({ emails, pushes })})`);
      },
    };
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const order = iteration % 2 === 0 ? (['baseline', 'subject'] as const) : (['subject', 'baseline'] as const);
      for (const side of order) {
        await seedDueRows(sql, emailUsers, pushUsers);
        const started = performance.now();
        await drain[side]();
        (side === 'baseline' ? baseline : subject).push(performance.now() - started);
      }
    }
    const base = summary('bare claim (SKIP LOCKED, lease) and UPDATE to sent, nothing sent', baseline);
    const worker = summary(`delivery worker through the fakes (concurrency ${CONCURRENCY} per channel)`, subject);
    const rate = (measured: Measured) => Math.round((ROWS / measured.medianMs) * 1000);
    return {
      title: `Delivery: drain ${ROWS.toLocaleString('en')} due rows (5,000 emails, 4,000 Web Pushes, 1,000 app pushes)`,
      baseline: base,
      subject: worker,
      ratio: worker.medianMs / base.medianMs,
      // The target: the worker's rows/s at least half the bare claim-and-update's.
      target: 2,
      detail: [
        `rows/s   worker ${rate(worker).toLocaleString('en')}, bare claim-and-update ${rate(base).toLocaleString('en')}`,
        `throughput ratio ${(base.medianMs / worker.medianMs).toFixed(2)}× (target ≥ 0.5×)`,
      ],
    };
  } finally {
    await email.close();
    await hub.close();
    await browsers.close();
  }
}

/** One due row per member, as notify queues them (no inbox entry: deliveries outlive it anyway). */
async function seedDueRows(sql: Sql, emailUsers: string[], pushUsers: string[]): Promise<void> {
  await sql`
    insert into notification_outbox (user_id, channel, deliver_after, title, body, tone)
    select user_id, channel, now() - interval '1 minute', 'Training moved', 'Now at 19:00, lane 3.', 'info'
    from (select unnest(${emailUsers}::text[]) as user_id, 'email' as channel
          union all select unnest(${pushUsers}::text[]), 'push') as rows`;
  await sql`analyze notification_outbox`;
}

/** The baseline: the worker's own claim, then the rows marked sent, round after round. */
async function claimAndMarkSent(sql: Sql): Promise<void> {
  for (const channel of ['email', 'push'] as const) {
    for (;;) {
      const rows = await claimDue(sql, channel, new Date(), 200, CLAIM_LEASE_MS);
      if (rows.length === 0) break;
      await sql`
        update notification_outbox set status = 'sent', sent_at = now(), updated_at = now()
        where id = any(${rows.map((row) => row.id)}::bigint[]) and status = 'pending'`;
    }
  }
}

function summary(name: string, times: number[]): Measured {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), samples: sorted.length };
}
