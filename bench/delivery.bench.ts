import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { EmailClient } from '@azure/communication-email';
import { NotificationHubsClient } from '@azure/notification-hubs';
import webPush from 'web-push';
import { startIpcChild } from '../development/local/ipcChild';
import type { BrowserSubscription } from '../development/pushFakes/webPushFake';
import type { Sql } from '../shared/db/client';
import { acsEmailSender } from '../shared/notifications/channels/email/acsEmailSender';
import { deliveryClientPolicies } from '../shared/notifications/channels/throttlingPolicy';
import { deliverDueEmails } from '../shared/notifications/channels/email/deliverEmails';
import { inParallel } from '../shared/notifications/outbox/inParallel';
import { deliverDuePushes } from '../shared/notifications/push/deliverPushes';
import { notificationHubChannel } from '../shared/notifications/channels/notificationHubs/notificationHubChannel';
import type { PushChannels } from '../shared/notifications/push/pushChannels';
import { registerPush } from '../shared/notifications/push/pushRegistrations';
import { upsertRegistration } from '../shared/notifications/push/registrationRepository';
import { webPushChannel } from '../shared/notifications/channels/webPush/webPushChannel';
import type { BenchContext } from './context';
import { bareDrain } from './delivery/bareSender';
import { explainClaim, type ClaimPlan } from './delivery/claimPlan';
import type { FakeAddresses, FakeCounts } from './delivery/fakes';
import type { Comparison, Measured } from './harness';

const BATCH = 200;
const CONCURRENCY = 32;
/** Due rows in the outbox whenever a side starts draining: 10,000 for `npm run bench`, 1,000,000 for the run. */
const ROWS = Number(process.env['BENCH_DELIVERY_ROWS'] ?? 10_000);
/** Rows each side drains per iteration, half email, half push; a multiple of two batches. */
const SLICE = Number(process.env['BENCH_DELIVERY_SLICE'] ?? Math.min(ROWS, 20_000));
const ITERATIONS = Number(process.env['BENCH_DELIVERY_ITERATIONS'] ?? 3);
/** A directory: both sides are profiled there (one .cpuprofile per measured drain). */
const PROFILE_DIR = process.env['BENCH_DELIVERY_PROFILE'];
const ROUNDS = SLICE / 2 / BATCH;
const EMAIL_USERS = SLICE / 2;
const PUSH_USERS = SLICE / 2;
const WEB_PUSH_USERS = Math.round(PUSH_USERS * 0.8);
/**
 * The claim may touch this many buffers: a batch's index and heap pages and its row locks (about
 * 400 on a fresh outbox), plus the dead index entries of rows drained since the last vacuum (about
 * 900 after seven drains of 10,000); a scan of a channel's due rows in a million-row outbox would
 * touch tens of thousands.
 */
const CLAIM_MAX_BLOCKS = BATCH * 10;

/**
 * The delivery worker against a bare sender making the same sends. The outbox holds ROWS due
 * rows (seeded with one `insert … select generate_series`, untimed); each side drains SLICE of
 * them, the oldest, while the rest stay due, and the slice is queued again (untimed) before the
 * next drain, so every drain starts against ROWS due rows. Half the rows are emails (one member
 * each through the Communication Services fake), 40 % Web Pushes (browser subscriptions at the
 * push service fake), 10 % app pushes (Notification Hubs fake); the members repeat with a period
 * of the slice, so a batch never holds two rows of one member.
 *
 * Subject: deliverDueEmails and deliverDuePushes side by side (batches of 200, concurrency 32
 * per channel). Baseline: bench/delivery/bareSender.ts, the same SDK calls with the same payloads
 * and concurrency, reading rows with a plain indexed select and marking them with a plain
 * UPDATE. One warm-up round per side, then ITERATIONS alternated drains per side.
 *
 * The fakes run in a child process (bench/delivery/fakes.ts), so the CPU this process spends
 * while draining is the sender's; the fakes' share is reported beside it. The claim's plan on the
 * full outbox (before the drains and after them) is checked: an index scan that reads about a
 * batch, or the figure fails.
 */
export default async function delivery({ sql }: BenchContext): Promise<Comparison> {
  if (!process.env['NODE_EXTRA_CA_CERTS'])
    throw new Error('the delivery bench needs the local certificate trusted (bench/run.ts sets it up)');
  if (!(SLICE > 0 && SLICE % (2 * BATCH) === 0 && SLICE <= ROWS))
    throw new Error(`BENCH_DELIVERY_SLICE must be a multiple of ${2 * BATCH} and at most BENCH_DELIVERY_ROWS (${ROWS})`);
  const loadBefore = loadavg();
  const fakes = await startFakes();
  try {
    const vapid = { subject: 'mailto:bench@example.org', ...webPush.generateVAPIDKeys() };
    const { emailConnectionString, hubConnectionString, hubName } = fakes.addresses;
    const channels: PushChannels = {
      web: { channel: webPushChannel(vapid), publicKey: vapid.publicKey, allowedHosts: ['127.0.0.1'] },
      mobile: notificationHubChannel({ connectionString: hubConnectionString, hubName }),
    };
    const senderAddress = 'DoNotReply@bench.example.org';
    const site = { publicBaseUrl: 'https://bench.example.org', senderName: 'Bench' };
    const sender = acsEmailSender(
      // The pipeline production gives the client (emailSenderFromSettings), throttling step included.
      new EmailClient(emailConnectionString, { allowInsecureConnection: true, ...deliveryClientPolicies() }),
      senderAddress,
    );
    // The bare sender's clients as a hand-written sender would make them: the SDKs' defaults.
    const bare = {
      email: new EmailClient(emailConnectionString, { allowInsecureConnection: true }),
      senderAddress,
      hub: new NotificationHubsClient(hubConnectionString, hubName),
      vapid,
      ...site,
    };

    const seeding = performance.now();
    await sql`
      insert into user_contact (user_id, email, language, email_confirmed_at)
      select 'bench-email-' || i, 'bench-email-' || i || '@bench.example.org', 'en', now()
      from generate_series(0, ${EMAIL_USERS - 1}::int) as i`;
    const subscriptions = await fakes.subscribe(vapid.publicKey, WEB_PUSH_USERS);
    const pushUsers = Array.from({ length: PUSH_USERS }, (_, index) => index);
    await inParallel(pushUsers, 4, async (index) => {
      const subscription = subscriptions[index];
      if (subscription) return void (await registerPush(sql, channels, `bench-push-${index}`, { platform: 'webpush', subscription }));
      // The app's registration as registerPush stores it, with the hub's install tried again when it
      // fails on a crowded machine (what a member's app does), naming the hub's answer if it never takes it.
      const target = await sql.begin((tx) =>
        upsertRegistration(tx, `bench-push-${index}`, {
          platform: 'fcmv1',
          address: `bench-fcm-token-${index}-${'x'.repeat(30)}`,
          p256dh: null,
          auth: null,
        }),
      );
      for (let attempt = 1; ; attempt++) {
        try {
          await channels.mobile?.install(target.target);
          return;
        } catch (error) {
          if (attempt === 5) throw new Error(`the hub fake did not take installation ${index}: ${(error as Error).message}`);
        }
      }
    });
    const outbox = queue(sql);
    await outbox.add(ROWS);
    await sql`vacuum analyze notification_outbox`;
    const seededMs = performance.now() - seeding;
    const plans: ClaimPlan[] = [];
    for (const channel of ['email', 'push'] as const) plans.push(await explainClaim(sql, channel, BATCH, CLAIM_MAX_BLOCKS));

    // Each drain answers the rows it sent and, by reason, those it did not (a send timing out on a
    // crowded machine): the worker parks such a row with backoff, the bare sender selects it again.
    const drains = {
      baseline: async (rounds: number) => {
        const { sent, failures } = await bareDrain(sql, bare, { batch: BATCH, rounds, concurrency: CONCURRENCY });
        return { sent, unsent: failures };
      },
      subject: async (rounds: number) => {
        const [{ since }]: [{ since: Date }] = await sql`select clock_timestamp() as since`;
        const options = { concurrency: CONCURRENCY, batch: BATCH, maxRounds: rounds };
        const [emails, pushes] = await Promise.all([
          deliverDueEmails(sql, { sender, ...site, ...options }),
          deliverDuePushes(sql, { channels, ...options }),
        ]);
        const sent = emails.sent + pushes.sent;
        const unsent: { reason: string; count: number }[] =
          sent < rounds * 2 * BATCH
            ? await sql`
                select coalesce(reason, outcome) as reason, count(*)::int as count from notification_delivery_log
                where at >= ${since} and outcome <> 'sent' group by 1`
            : [];
        return { sent, unsent: new Map(unsent.map(({ reason, count }) => [reason, count])) };
      },
    };
    for (const side of ['baseline', 'subject'] as const) {
      await drains[side](1);
      await outbox.add(2 * BATCH);
    }

    const times = { baseline: [] as number[], subject: [] as number[] };
    const cpu = { baseline: [] as number[], subject: [] as number[], fakesBaseline: [] as number[], fakesSubject: [] as number[] };
    const requests: Partial<Record<'baseline' | 'subject', FakeCounts>> = {};
    const notSent = { baseline: new Map<string, number>(), subject: new Map<string, number>() };
    const shortDrains: string[] = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const order = iteration % 2 === 0 ? (['baseline', 'subject'] as const) : (['subject', 'baseline'] as const);
      for (const side of order) {
        const profile = PROFILE_DIR ? await startProfile() : undefined;
        const countsBefore = await fakes.counts();
        const fakesBefore = await fakes.cpuMicros();
        const before = process.cpuUsage();
        const started = performance.now();
        const { sent, unsent } = await drains[side](ROUNDS);
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(before);
        const fakesUsed = (await fakes.cpuMicros()) - fakesBefore;
        const countsAfter = await fakes.counts();
        if (profile)
          await profile.stop(path.join(PROFILE_DIR ?? '.', `delivery-${side === 'subject' ? 'worker' : 'bare'}-${iteration}.cpuprofile`));
        // The time the whole slice would have taken at this drain's rate.
        times[side].push((elapsed * SLICE) / Math.max(1, sent));
        for (const [reason, count] of unsent) notSent[side].set(reason, (notSent[side].get(reason) ?? 0) + count);
        if (sent < SLICE * 0.99) shortDrains.push(`${side === 'subject' ? 'worker' : 'bare sender'} sent ${sent} of ${SLICE}`);
        cpu[side].push((used.user + used.system) / 1000 / SLICE);
        cpu[side === 'subject' ? 'fakesSubject' : 'fakesBaseline'].push(fakesUsed / 1000 / SLICE);
        requests[side] = difference(countsAfter, countsBefore);
        await outbox.add(SLICE);
      }
    }
    for (const channel of ['email', 'push'] as const) plans.push(await explainClaim(sql, channel, BATCH, CLAIM_MAX_BLOCKS));
    const loadAfter = loadavg();

    const base = summary(`bare sender, same SDK sends (concurrency ${CONCURRENCY} per channel)`, times.baseline);
    const worker = summary(`delivery worker (concurrency ${CONCURRENCY} per channel)`, times.subject);
    const rate = (measured: Measured) => Math.round((SLICE / measured.medianMs) * 1000);
    const ms = (values: number[]) => median(values).toFixed(3);
    const perSlice = (counts: FakeCounts | undefined) =>
      counts
        ? Object.entries(counts as unknown as Record<string, number>)
            .map(([kind, count]) => `${kind} ${count.toLocaleString('en')}`)
            .join(', ')
        : '—';
    const problems = [
      ...plans.flatMap((plan, index) =>
        plan.problems.map((problem) => `${plan.channel} claim ${index < 2 ? 'before' : 'after'} the drains: ${problem}`),
      ),
      // A drain that sent much less than its slice measured failures, not delivery.
      ...shortDrains,
    ];
    const reasons = (map: Map<string, number>) => (map.size ? [...map].map(([reason, count]) => `${reason} ×${count}`).join(', ') : 'none');
    return {
      title: `Delivery: drain ${SLICE.toLocaleString('en')} of ${ROWS.toLocaleString('en')} due rows per side (50 % emails, 40 % Web Pushes, 10 % app pushes)`,
      baseline: base,
      subject: worker,
      ratio: worker.medianMs / base.medianMs,
      // The target: the worker's rows/s at least 0.8× the bare sender's.
      target: 1.25,
      ...(problems.length ? { failed: problems.join('; ') } : {}),
      detail: [
        `rows/s   worker ${rate(worker).toLocaleString('en')}, bare sender ${rate(base).toLocaleString('en')}`,
        `throughput ratio ${(base.medianMs / worker.medianMs).toFixed(2)}× (target ≥ 0.8×)`,
        `CPU per row (median): worker ${ms(cpu.subject)} ms, bare sender ${ms(cpu.baseline)} ms; fakes process ${ms(cpu.fakesSubject)} ms (worker's drains), ${ms(cpu.fakesBaseline)} ms (bare drains)`,
        `requests at the fakes per drain: worker ${perSlice(requests.subject)}; bare ${perSlice(requests.baseline)}`,
        `sends not taken (all measured drains): worker ${reasons(notSent.subject)}; bare ${reasons(notSent.baseline)}`,
        `load average (1 min) ${loadBefore[0]?.toFixed(1)} → ${loadAfter[0]?.toFixed(1)}; seeding ${(seededMs / 1000).toFixed(1)} s (untimed)`,
        ...plans.flatMap((plan, index) => [
          `claim plan, ${plan.channel}, ${index < 2 ? 'before the drains' : 'after the drains'}: ${plan.problems.length ? 'FAILED' : 'index scan, about a batch'}`,
          ...plan.excerpt.map((line) => `  ${line}`),
        ]),
      ],
    };
  } finally {
    await fakes.stop();
  }
}

/** Queues due rows at the end of the outbox; members repeat with a period of the slice. */
function queue(sql: Sql) {
  let queued = 0;
  return {
    async add(count: number) {
      await sql`
        insert into notification_outbox (user_id, channel, deliver_after, title, body, tone)
        select case when i % 2 = 0 then 'bench-email-' || (i / 2) % ${EMAIL_USERS}::bigint else 'bench-push-' || (i / 2) % ${PUSH_USERS}::bigint end,
               case when i % 2 = 0 then 'email' else 'push' end,
               now() - interval '1 minute', 'Training moved', 'Now at 19:00, lane 3.', 'info'
        from generate_series(${queued}::bigint, ${queued + count - 1}::bigint) as i
        order by i`;
      queued += count;
      // A small outbox is replaced by every slice; the planner should know it.
      if (ROWS <= SLICE) await sql`analyze notification_outbox`;
    },
  };
}

interface Fakes {
  addresses: FakeAddresses;
  subscribe(key: string, count: number): Promise<BrowserSubscription[]>;
  cpuMicros(): Promise<number>;
  counts(): Promise<FakeCounts>;
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
    counts: () => child.ask('counts', 'counts'),
    stop: child.stop,
  };
}

/** A CPU profile of this process (the sender's side) from now until stop. */
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

function difference(after: FakeCounts, before: FakeCounts): FakeCounts {
  return Object.fromEntries(
    Object.entries(after).map(([kind, count]) => [kind, count - before[kind as keyof FakeCounts]]),
  ) as unknown as FakeCounts;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

function summary(name: string, times: number[]): Measured {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), samples: sorted.length };
}
