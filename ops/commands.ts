import type { Command, CommandRun } from './command';

/**
 * A command of the list: its module (and the SDKs it needs: Event Hubs, Tables, the database
 * driver...) loads only when this command runs, so a start of one command pays for no other.
 */
function command(name: string, usage: string, load: () => Promise<CommandRun>): Command {
  return { name, usage, run: async (args, env) => (await load())(args, env) };
}

/** Every production command, by the name `node dist/ops.js <name>` and `npm run <name>` take. */
export const COMMANDS: readonly Command[] = [
  command('migrate', 'migrate', async () => (await import('./migrate')).runMigrate),
  command(
    'ingest:backfill',
    'ingest:backfill <clubId>:<recordId> ... [--group=<id>] [--new-group] [--force]',
    async () => (await import('./ingestBackfill')).runBackfillRecords,
  ),
  command(
    'ingest:backfill-shooters',
    'ingest:backfill-shooters <clubId> ... [--group=<id>] [--new-group] [--force]',
    async () => (await import('./ingestBackfill')).runBackfillShooters,
  ),
  command(
    'ingest:replay-dead-letters',
    'ingest:replay-dead-letters [--id=<n>] [--limit=<n>]',
    async () => (await import('./ingestReplayDeadLetters')).runReplayDeadLetters,
  ),
  command(
    'freshness:check',
    'freshness:check --url https://<deployment>',
    async () => (await import('./freshnessCheck')).runFreshnessCheck,
  ),
  command(
    'edge:token',
    'edge:token --club <clubId> | --list --club <clubId> | --revoke <tokenId> | --help',
    async () => (await import('./edgeToken')).runEdgeToken,
  ),
  command(
    'challenges:service-token',
    'challenges:service-token',
    async () => (await import('./challengeServiceToken')).runChallengeServiceToken,
  ),
  command(
    'seed:challenges',
    'seed:challenges   (SEED_CLUB_ID, SEED_PERSONAL_USER_ID from the environment)',
    async () => (await import('./seedChallenges')).runSeedChallenges,
  ),
  command(
    'rollout:gate',
    'rollout:gate ingest-status <base-url> <desired> <deployed> | rollout:gate club-master-sync <base-url>',
    async () => (await import('./rolloutGates')).runRolloutGate,
  ),
  command(
    'ingest:worker-plan',
    'ingest:worker-plan <STAGING_INGEST_ENABLED> <STAGING_INGEST_REPLICAS>',
    async () => (await import('./ingestWorkerPlan')).runIngestWorkerPlan,
  ),
  command(
    'deploy:check-sign-in',
    'deploy:check-sign-in   (reads AUTH_TENANT_ID, AUTH_PORTAL_CLIENT_ID, AUTH_APP_CLIENT_ID)',
    async () => (await import('./signInSettings')).runCheckSignIn,
  ),
];

export function findCommand(name: string | undefined): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** The usage line of a command of the list, for the command's own messages. */
export function usageOf(name: string): string {
  const found = findCommand(name);
  if (!found) throw new Error(`No command "${name}"`);
  return found.usage;
}
