import type { Command, CommandRun } from './command';
import { USAGE, type CommandName } from './usage';

/**
 * A command of the list: its module (and the SDKs it needs: Event Hubs, Tables, the database
 * driver...) loads only when this command runs, so a start of one command pays for no other.
 */
function command(name: CommandName, load: () => Promise<CommandRun>): Command {
  return { name, usage: USAGE[name], run: async (args, env) => (await load())(args, env) };
}

/** Every production command, by the name `node dist/ops.js <name>` and `npm run <name>` take. */
export const COMMANDS: readonly Command[] = [
  command('migrate', async () => (await import('./migrate')).runMigrate),
  command('ingest:backfill', async () => (await import('./ingestBackfill')).runBackfillRecords),
  command('ingest:backfill-shooters', async () => (await import('./ingestBackfill')).runBackfillShooters),
  command('ingest:replay-dead-letters', async () => (await import('./ingestReplayDeadLetters')).runReplayDeadLetters),
  command('freshness:check', async () => (await import('./freshnessCheck')).runFreshnessCheck),
  command('edge:token', async () => (await import('./edgeToken')).runEdgeToken),
  command('challenges:service-token', async () => (await import('./challengeServiceToken')).runChallengeServiceToken),
  command('seed:challenges', async () => (await import('./seedChallenges')).runSeedChallenges),
  command('rollout:gate', async () => (await import('./rolloutGates')).runRolloutGate),
  command('ingest:worker-plan', async () => (await import('./ingestWorkerPlan')).runIngestWorkerPlan),
  command('deploy:check-sign-in', async () => (await import('./signInSettings')).runCheckSignIn),
];

export function findCommand(name: string | undefined): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
