import { runningEmailFake } from './local';
import type { SentEmail } from './server';

/**
 * `npm run emails`: the emails the delivery timer "sent" through the local Communication
 * Services fake of a running `npm start`, oldest first (`--html` adds the HTML part).
 */
async function main(): Promise<void> {
  const endpoint = await runningEmailFake();
  if (!endpoint) {
    console.error('No local email fake is running: start the service with npm start (without NOTIFY_EMAIL_CONNECTION).');
    process.exit(2);
  }
  const response = await fetch(`${endpoint}/emails`);
  const { value } = (await response.json()) as { value: SentEmail[] };
  if (value.length === 0) console.log('No emails sent yet.');
  for (const email of value) {
    console.log(`--- ${email.receivedAt}  to ${email.to.join(', ')}  (operation ${email.operationId})`);
    console.log(`Subject: ${email.subject}`);
    for (const [name, header] of Object.entries(email.headers)) console.log(`${name}: ${header}`);
    console.log('');
    console.log(email.plainText ?? '');
    if (process.argv.includes('--html')) console.log(`\n${email.html ?? ''}`);
  }
}

main().catch((error: unknown) => {
  console.error(`Listing the emails failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
