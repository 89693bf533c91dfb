import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EmailClient } from '@azure/communication-email';
import webPush from 'web-push';
import { startIpcChild } from '../development/local/ipcChild';
import type { BrowserSubscription } from '../development/pushFakes/webPushFake';
import type { Sql } from '../shared/db/client';
import { acsEmailSender } from '../shared/notifications/channels/email/acsEmailSender';
import { deliveryClientPolicies } from '../shared/notifications/channels/throttlingPolicy';
import { saveContact } from '../shared/notifications/contactRepository';
import { deliverDueEmails } from '../shared/notifications/channels/email/deliverEmails';
import { claimDue } from '../shared/notifications/outbox/outboxClaims';
import { CLAIM_LEASE_MS } from '../shared/notifications/outbox/retryPolicy';
import { deliverDuePushes } from '../shared/notifications/push/deliverPushes';
import { notificationHubChannel } from '../shared/notifications/channels/notificationHubs/notificationHubChannel';
import type { PushChannels } from '../shared/notifications/push/pushChannels';
import { registerPush } from '../shared/notifications/push/pushRegistrations';
import { webPushChannel } from '../shared/notifications/channels/webPush/webPushChannel';
import type { BenchContext } from './context';
import type { FakeAddresses } from './delivery/fakes';
import type { Comparison, Measured } from './harness';

/** 10,000 for the figures in docs/benchmarks.md; smaller (BENCH_DELIVERY_ROWS=1000) for a quick look or a profile. */
const ROWS = Number(process.env['BENCH_DELIVERY_ROWS'] ?? 10_000);
const EMAIL_USERS = Math.round(ROWS * 0.5);
const WEB_PUSH_USERS = Math.round(ROWS * 0.4);
const APP_USERS = ROWS - EMAIL_USERS - WEB_PUSH_USERS;
/** A directory: the worker's side is profiled there (one .cpuprofile per measured drain). */
const PROFILE_DIR = process.env['BENCH_DELIVERY_PROFILE'];
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
 * The fakes run in a child process (bench/delivery/fakes.ts), so the CPU this process spends
 * while draining is the worker's: the SDKs' signing and HTTP, Web Push's ECDH, AES-GCM and VAPID
 * signature, the queries. The fakes' share (verifying signatures, decrypting every push) is
 * reported beside it; on two shared cores it still competes with the worker for time.
 */
export default async function delivery({ sql }: BenchContext): Promise<Comparison> {
  if (!process.env['NODE_EXTRA_CA_CERTS'])
    throw new Error('the delivery bench needs the local certificate trusted (bench/run.ts sets it up)');
  const fakes = await startFakes();
  try {
    const vapid = { subject: 'mailto:bench@example.org', ...webPush.generateVAPIDKeys() };
    const channels: PushChannels = {
      web: { channel: webPushChannel(vapid), publicKey: vapid.publicKey, allowedHosts: ['127.0.0.1'] },
      mobile: notificationHubChannel({ connectionString: fakes.addresses.hubConnectionString, hubName: fakes.addresses.hubName }),
    };
    const sender = acsEmailSender(
      // The pipeline production gives the client (emailSenderFromSettings), throttling step included.
      new EmailClient(fakes.addresses.emailConnectionString, { allowInsecureConnection: true, ...deliveryClientPolicies() }),
      'DoNotReply@bench.example.org',
    );
    const emailUsers = Array.from({ length: EMAIL_USERS }, (_, index) => `bench-email-${index}`);
    const pushUsers = Array.from({ length: WEB_PUSH_USERS + APP_USERS }, (_, index) => `bench-push-${index}`);
    for (const userId of emailUsers) await saveContact(sql, userId, { email: `${userId}@bench.example.org`, language: 'en' });
    const subscriptions = await fakes.subscribe(vapid.publicKey, WEB_PUSH_USERS);
    for (const [index, userId] of pushUsers.entries()) {
      const subscription = subscriptions[index];
      const body = subscription
        ? { platform: 'webpush' as const, subscription }
        : { platform: 'fcmv1' as const, deviceToken: `bench-fcm-token-${index}-${'x'.repeat(30)}` };
      await registerPush(sql, channels, userId, body);
    }

    const baseline: number[] = [];
    const subject: number[] = [];
    const cpu = { worker: [] as number[], fakes: [] as number[], bare: [] as number[] };
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
        const profile = PROFILE_DIR && side === 'subject' ? await startProfile() : undefined;
        const fakesBefore = await fakes.cpuMicros();
        const before = process.cpuUsage();
        const started = performance.now();
        await drain[side]();
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(before);
        const fakesUsed = (await fakes.cpuMicros()) - fakesBefore;
        if (profile) await profile.stop(path.join(PROFILE_DIR ?? '.', `delivery-worker-${iteration}.cpuprofile`));
        (side === 'baseline' ? baseline : subject).push(elapsed);
        if (side === 'subject') {
          cpu.worker.push((used.user + used.system) / 1000 / ROWS);
          cpu.fakes.push(fakesUsed / 1000 / ROWS);
        } else cpu.bare.push((used.user + used.system) / 1000 / ROWS);
      }
    }
    const base = summary('bare claim (SKIP LOCKED, lease) and UPDATE to sent, nothing sent', baseline);
    const worker = summary(`delivery worker through the fakes (concurrency ${CONCURRENCY} per channel)`, subject);
    const rate = (measured: Measured) => Math.round((ROWS / measured.medianMs) * 1000);
    const ms = (values: number[]) => median(values).toFixed(3);
    return {
      title: `Delivery: drain ${ROWS.toLocaleString('en')} due rows (${EMAIL_USERS.toLocaleString('en')} emails, ${WEB_PUSH_USERS.toLocaleString('en')} Web Pushes, ${APP_USERS.toLocaleString('en')} app pushes)`,
      baseline: base,
      subject: worker,
      ratio: worker.medianMs / base.medianMs,
      // The target: the worker's rows/s at least half the bare claim-and-update's.
      target: 2,
      detail: [
        `rows/s   worker ${rate(worker).toLocaleString('en')}, bare claim-and-update ${rate(base).toLocaleString('en')}`,
        `throughput ratio ${(base.medianMs / worker.medianMs).toFixed(2)}× (target ≥ 0.5×)`,
        `CPU per row (median): worker process ${ms(cpu.worker)} ms, fakes process ${ms(cpu.fakes)} ms, bare side's client ${ms(cpu.bare)} ms`,
      ],
    };
  } finally {
    await fakes.stop();
  }
}

interface Fakes {
  addresses: FakeAddresses;
  subscribe(key: string, count: number): Promise<BrowserSubscription[]>;
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/** Starts bench/delivery/fakes.ts; resolves once its fakes listen. */
async function startFakes(): Promise<Fakes> {
  const profiling = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, 'fakes')}`] : [];
  const child = await startIpcChild<FakeAddresses>(path.join(__dirname, 'delivery', 'fakes.ts'), {
    readyField: 'ready',
    label: 'delivery fakes',
    nodeArgs: profiling,
  });
  return {
    addresses: child.ready,
    subscribe: (key, count) => child.ask({ subscribe: { key, count } }, 'subscriptions'),
    cpuMicros: () => child.ask('cpu', 'cpuMicros'),
    stop: child.stop,
  };
}

/** A CPU profile of this process (the worker's side) from now until stop. */
async function startProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
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

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

function summary(name: string, times: number[]): Measured {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), samples: sorted.length };
}
