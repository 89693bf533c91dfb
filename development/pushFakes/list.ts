import { runningPushFakes } from './local';
import type { HubPush } from './notificationHubsFake';
import type { ReceivedWebPush } from './webPushFake';

/**
 * `npm run pushes`: what the delivery timer pushed through the local fakes of a running
 * `npm start`, oldest first: app pushes as the Notification Hub rendered them for APNs or FCM,
 * browser pushes as the browser decrypted them. `--subscribe` makes a browser subscription at the
 * Web Push fake and prints the body to register it with (POST /api/user/push-registrations).
 */
async function main(): Promise<void> {
  const fakes = await runningPushFakes();
  if (!fakes) {
    console.error('No local push fakes are running: start the service with npm start (without NOTIFY_PUSH_HUB_CONNECTION and VAPID keys).');
    process.exit(2);
  }
  if (process.argv.includes('--subscribe')) {
    if (!fakes.webPush) throw new Error('the Web Push fake is not running (VAPID keys are configured)');
    const response = await fetch(`${fakes.webPush}/_fake/subscriptions`, {
      method: 'POST',
      body: JSON.stringify({ applicationServerKey: fakes.vapidPublicKey }),
    });
    console.log(JSON.stringify({ platform: 'webpush', subscription: await response.json() }));
    return;
  }
  const app = fakes.hub ? ((await (await fetch(`${fakes.hub}/_fake/pushes`)).json()) as { value: HubPush[] }).value : [];
  const browser = fakes.webPush ? ((await (await fetch(`${fakes.webPush}/_fake/pushes`)).json()) as { value: ReceivedWebPush[] }).value : [];
  const lines = [
    ...app.map((push) => ({
      at: push.receivedAt,
      text: `--- ${push.receivedAt}  app ${push.platform} (installation ${push.installationId}, user ${push.userId ?? '?'}, template ${push.template ?? 'native'})\n${JSON.stringify(push.payload)}`,
    })),
    ...browser.map((push) => ({
      at: push.receivedAt,
      text: `--- ${push.receivedAt}  browser (subscription ${push.subscriptionId}, urgency ${push.urgency}, topic ${push.topic ?? '-'})\n${JSON.stringify(push.payload)}`,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  if (lines.length === 0) console.log('No pushes sent yet.');
  for (const line of lines) console.log(line.text);
}

main().catch((error: unknown) => {
  console.error(`Listing the pushes failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
