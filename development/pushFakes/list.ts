import { readFileSync } from 'node:fs';
import https from 'node:https';
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
  const ca = readFileSync(fakes.caFile, 'utf8');
  if (process.argv.includes('--subscribe')) {
    if (!fakes.webPush) throw new Error('the Web Push fake is not running (VAPID keys are configured)');
    const subscription = await call(
      `${fakes.webPush}/_fake/subscriptions`,
      ca,
      JSON.stringify({ applicationServerKey: fakes.vapidPublicKey }),
    );
    console.log(JSON.stringify({ platform: 'webpush', subscription }));
    return;
  }
  const app = fakes.hub ? ((await call(`${fakes.hub}/_fake/pushes`, ca)) as { value: HubPush[] }).value : [];
  const browser = fakes.webPush ? ((await call(`${fakes.webPush}/_fake/pushes`, ca)) as { value: ReceivedWebPush[] }).value : [];
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

/** A JSON request to a fake over its local certificate (GET, or POST with a body). */
function call(url: string, ca: string, body?: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: body === undefined ? 'GET' : 'POST', ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

main().catch((error: unknown) => {
  console.error(`Listing the pushes failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
