import { startFakeAcsEmail } from '../../development/acsEmailFake/server';
import { readFakeTls } from '../../development/costsFake/certificate';
import { startFakeNotificationHubs } from '../../development/pushFakes/notificationHubsFake';
import { startFakeWebPush } from '../../development/pushFakes/webPushFake';

/** What the bench gets once the fakes listen. */
export interface FakeAddresses {
  emailConnectionString: string;
  hubConnectionString: string;
  hubName: string;
}

/** Requests the fakes took since they started, by kind. */
export interface FakeCounts {
  emailSends: number;
  emailPolls: number;
  webPushes: number;
  hubSends: number;
  /** Installation reads (a sender checking a device before it sends). */
  hubReads: number;
}

/**
 * The delivery bench's three wire fakes (Communication Services Email, Notification Hubs, a
 * browser push service) in a process of their own, so that the bench process's CPU figure and
 * event loop are the worker's alone. Sends `{ ready: FakeAddresses }` over IPC once listening;
 * answers `{ subscribe: { key, count } }` with that many browser subscriptions, `cpu` with the
 * process's CPU time so far (µs), `counts` with what the fakes received; stops on `stop`.
 */
async function main(): Promise<void> {
  const caFile = process.env['NODE_EXTRA_CA_CERTS'];
  if (!caFile) throw new Error('NODE_EXTRA_CA_CERTS must name the local certificate');
  const tls = readFakeTls(caFile);
  const email = await startFakeAcsEmail({ runningPolls: 0, keep: 100 });
  const hub = await startFakeNotificationHubs({ tls, keep: 100 });
  const browsers = await startFakeWebPush({ tls, keep: 100 });
  process.on('message', (message: unknown) => {
    if (message === 'stop') {
      void Promise.all([email.close(), hub.close(), browsers.close()]).finally(() => process.exit(0));
    } else if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
    } else if (message === 'counts') {
      process.send?.({
        counts: {
          emailSends: email.requests.sends,
          emailPolls: email.requests.polls,
          webPushes: browsers.accepted,
          hubSends: hub.requests.sends,
          hubReads: hub.requests.installationReads,
        } satisfies FakeCounts,
      });
    } else if (typeof message === 'object' && message && 'subscribe' in message) {
      const { key, count } = (message as { subscribe: { key: string; count: number } }).subscribe;
      process.send?.({ subscriptions: Array.from({ length: count }, () => browsers.subscribe(key)) });
    }
  });
  const ready: FakeAddresses = {
    emailConnectionString: email.connectionString,
    hubConnectionString: hub.connectionString,
    hubName: hub.hubName,
  };
  process.send?.({ ready });
}

main().catch((error: unknown) => {
  process.stderr.write(`delivery fakes failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
