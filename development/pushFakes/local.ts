import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webPush from 'web-push';
import { resetSettings } from '../../shared/config/settings';
import { createFakeTls, readFakeTls, type FakeTls } from '../costsFake/certificate';
import { localDataDir } from '../local/paths';
import { caBundleWithFakes } from './localTrust';
import { startFakeNotificationHubs, type FakeNotificationHubs } from './notificationHubsFake';
import { startFakeWebPush, type FakeWebPush } from './webPushFake';

/** Where `npm start` notes the fakes' addresses for `npm run pushes`. */
const addressesFile = () => path.join(localDataDir(), 'push-fakes.json');

export interface LocalPushFakes {
  hub?: FakeNotificationHubs;
  webPush?: FakeWebPush;
  close(): Promise<void>;
}

/**
 * The certificate the push fakes serve, which this process must trust. The SDKs only speak
 * https and Node reads NODE_EXTRA_CA_CERTS once at start-up, so without it this process starts
 * itself again with a local certificate trusted, besides any certificates it was given (the parent
 * only relays signals and exits with the child's code, never returning). A process started with NODE_EXTRA_CA_CERTS naming a local
 * certificate whose key lies beside it (the tests', the cost fake's) serves the fakes with that one.
 */
export async function trustedLocalTls(): Promise<FakeTls> {
  const trusted = process.env['NODE_EXTRA_CA_CERTS'];
  if (trusted && existsSync(path.join(path.dirname(trusted), 'fake-cost-provider.key'))) return readFakeTls(trusted);
  const tls = await createFakeTls(path.join(localDataDir(), 'push-fakes'));
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: caBundleWithFakes(trusted, tls) },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 130 : 1))));
  process.exit(code);
}

/**
 * For `npm start`: the Notification Hubs fake when no hub is configured, and the Web Push fake
 * with a VAPID key pair made for the run when no VAPID keys are configured; the settings point
 * at them so the delivery timer sends through the real SDK and web-push.
 */
export async function startLocalPushFakes(tls: FakeTls): Promise<LocalPushFakes> {
  const fakes: LocalPushFakes = { close: () => Promise.resolve() };
  if (!process.env['NOTIFY_PUSH_HUB_CONNECTION']?.trim()) {
    fakes.hub = await startFakeNotificationHubs({ tls });
    process.env['NOTIFY_PUSH_HUB_CONNECTION'] = fakes.hub.connectionString;
    process.env['NOTIFY_PUSH_HUB_NAME'] = fakes.hub.hubName;
  }
  if (!process.env['NOTIFY_WEBPUSH_PRIVATE_KEY']?.trim()) {
    fakes.webPush = await startFakeWebPush({ tls });
    const keys = webPush.generateVAPIDKeys();
    process.env['NOTIFY_WEBPUSH_PUBLIC_KEY'] = keys.publicKey;
    process.env['NOTIFY_WEBPUSH_PRIVATE_KEY'] = keys.privateKey;
    process.env['NOTIFY_WEBPUSH_SUBJECT'] ||= 'mailto:push@localhost.localdomain';
    // The fake is the browsers' push service here.
    process.env['NOTIFY_WEBPUSH_ALLOWED_HOSTS'] = '127.0.0.1';
  }
  resetSettings();
  await mkdir(localDataDir(), { recursive: true });
  await writeFile(
    addressesFile(),
    JSON.stringify({
      hub: fakes.hub?.endpoint,
      webPush: fakes.webPush?.origin,
      vapidPublicKey: process.env['NOTIFY_WEBPUSH_PUBLIC_KEY'],
      caFile: tls.caFile,
    }),
  );
  fakes.close = async () => {
    await rm(addressesFile(), { force: true });
    await fakes.hub?.close();
    await fakes.webPush?.close();
  };
  return fakes;
}

export interface RunningPushFakes {
  hub?: string;
  webPush?: string;
  vapidPublicKey?: string;
  /** The certificate the fakes serve, for a command that talks to them. */
  caFile: string;
}

/** The addresses of the push fakes a running `npm start` of this checkout serves, if any. */
export async function runningPushFakes(): Promise<RunningPushFakes | undefined> {
  const text = await readFile(addressesFile(), 'utf8').catch(() => undefined);
  return text ? (JSON.parse(text) as RunningPushFakes) : undefined;
}
