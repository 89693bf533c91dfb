import os from 'node:os';
import { parseArgs } from 'node:util';
import { INGEST_APPLY_SETTING_NAMES } from '../shared/config/settings';
import { admissionThresholds, retentionFrom } from '../shared/ingest/eventRunner';
import { replayDeadLetters } from '../shared/ingest/replayDeadLetters';
import type { CommandEnv, CommandRun } from './command';
import { USAGE } from './usage';
import { openCommandDatabase } from './database';
import { commandSettings } from './settings';

/**
 * `ingest:replay-dead-letters [--id=<n>] [--limit=<n>]` (docs/runbook-ingest.md, "Dead letters"):
 * runs pending dead letters through the apply core again, oldest first.
 * Exit codes: 0 every one replayed, 1 some still refused or failed, 2 bad arguments or settings.
 */
const EXIT = { done: 0, failed: 1, usage: 2 } as const;

function parsed(argv: string[]): { id: number | null; limit: number } | null {
  try {
    const { values } = parseArgs({ args: argv, options: { id: { type: 'string' }, limit: { type: 'string' } }, strict: true });
    const id = values.id === undefined ? null : Number(values.id);
    const limit = values.limit === undefined ? 1000 : Number(values.limit);
    if ((id !== null && !(Number.isSafeInteger(id) && id > 0)) || !(Number.isSafeInteger(limit) && limit > 0 && limit <= 100_000))
      return null;
    return { id, limit };
  } catch {
    return null;
  }
}

export const runReplayDeadLetters: CommandRun = replay;

async function replay(args: string[], env: CommandEnv): Promise<number> {
  const options = parsed(args);
  if (!options) {
    console.error(`--id must be a positive whole number, --limit one from 1 to 100000\nUsage: ${USAGE['ingest:replay-dead-letters']}`);
    return EXIT.usage;
  }
  const settings = commandSettings(INGEST_APPLY_SETTING_NAMES, env);
  const database = openCommandDatabase(env);
  try {
    const summary = await replayDeadLetters(database.sql, {
      apply: {
        runner: { id: `replay:${os.hostname()}`, kind: 'event' },
        // Like the backfill: the replay leaves the runners' status and admission alone.
        statusEnabled: false,
        thresholds: admissionThresholds(settings),
        ...retentionFrom(settings),
      },
      id: options.id,
      limit: options.limit,
    });
    console.log(
      `Replayed ${summary.replayed}, still refused ${summary.failed}, without content ${summary.withoutContent} (see last_replay_error in the diagnostics).`,
    );
    return summary.failed + summary.withoutContent > 0 ? EXIT.failed : EXIT.done;
  } catch (error) {
    console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  } finally {
    await database.close();
  }
}
