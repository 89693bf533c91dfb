import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { optionalText, readEnvSettings } from '../shared/config/envValues';
import type { CommandRun } from './command';
import { USAGE } from './usage';
import { EXIT, runFreshnessAlarm } from './freshnessAlarm';

/** The command's own variables (not app settings), as the scheduled workflow sets them. */
const FreshnessCheckSchema = v.object({ FRESHNESS_CHECK_TOKEN: optionalText, SVC_FRESHNESS_SNOOZE_UNTIL: optionalText });

/**
 * `freshness:check --url <base>`: exits 0 when data is fresh (or no club delivered yet, or the
 * alarm is snoozed by SVC_FRESHNESS_SNOOZE_UNTIL), 1 when a club is stale, 2 when the check
 * failed, 64 on bad input. FRESHNESS_CHECK_TOKEN (optional, a platform admin's token) lets it
 * list each stale club with its hint.
 */
export const runFreshnessCheck: CommandRun = async (args, env) => {
  let url: string | undefined;
  try {
    ({ url } = parseArgs({ args, options: { url: { type: 'string' } } }).values);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return EXIT.usage;
  }
  if (!url || !/^https?:\/\/[^\s]+$/.test(url)) {
    console.error(`Usage: ${USAGE['freshness:check']}`);
    return EXIT.usage;
  }
  const variables = readEnvSettings(FreshnessCheckSchema, ['FRESHNESS_CHECK_TOKEN', 'SVC_FRESHNESS_SNOOZE_UNTIL'], env);
  if (!variables.ok) {
    console.error(variables.problems.map((problem) => `${problem.setting} ${problem.message}`).join('; '));
    return EXIT.usage;
  }
  try {
    const result = await runFreshnessAlarm({
      url,
      token: variables.value.FRESHNESS_CHECK_TOKEN,
      snoozeUntil: variables.value.SVC_FRESHNESS_SNOOZE_UNTIL,
      now: new Date(),
    });
    for (const line of result.lines) (result.exitCode === EXIT.ok ? console.log : console.error)(line);
    return result.exitCode;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return EXIT.error;
  }
};
