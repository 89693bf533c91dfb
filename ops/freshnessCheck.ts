import { parseArgs } from 'node:util';
import { EXIT, runFreshnessAlarm } from './freshness/alarm';

/**
 * `npm run freshness:check -- --url <base>`: exits 0 when data is fresh (or no club delivered yet,
 * or the alarm is snoozed by SVC_FRESHNESS_SNOOZE_UNTIL), 1 when a club is stale, 2 when the
 * check failed, 64 on bad input. FRESHNESS_CHECK_TOKEN (optional, a platform admin's token)
 * lets it list each stale club with its hint.
 */
async function main(): Promise<number> {
  let url: string | undefined;
  try {
    ({ url } = parseArgs({ options: { url: { type: 'string' } } }).values);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return EXIT.usage;
  }
  if (!url || !/^https?:\/\/[^\s]+$/.test(url)) {
    console.error('Usage: npm run freshness:check -- --url https://<deployment>');
    return EXIT.usage;
  }
  const result = await runFreshnessAlarm({
    url,
    token: process.env['FRESHNESS_CHECK_TOKEN'] || undefined,
    snoozeUntil: process.env['SVC_FRESHNESS_SNOOZE_UNTIL'],
    now: new Date(),
  });
  for (const line of result.lines) (result.exitCode === EXIT.ok ? console.log : console.error)(line);
  return result.exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(EXIT.error);
  },
);
