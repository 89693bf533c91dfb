/**
 * Every production command's name and usage line: the list (ops/commands.ts) and the commands' own
 * messages read them here, so that a command's module need not load the list, nor the list the module.
 */
export const USAGE = {
  migrate: 'migrate',
  'ingest:backfill': 'ingest:backfill <clubId>:<recordId> ... [--group=<id>] [--new-group] [--force]',
  'ingest:backfill-shooters': 'ingest:backfill-shooters <clubId> ... [--group=<id>] [--new-group] [--force]',
  'ingest:replay-dead-letters': 'ingest:replay-dead-letters [--id=<n>] [--limit=<n>]',
  'freshness:check': 'freshness:check --url https://<deployment>',
  'edge:token': 'edge:token --club <clubId> | --list --club <clubId> | --revoke <tokenId> | --help',
  'challenges:service-token': 'challenges:service-token',
  'seed:challenges': 'seed:challenges   (SEED_CLUB_ID, SEED_PERSONAL_USER_ID from the environment)',
  'rollout:gate': 'rollout:gate ingest-status <base-url> <desired> <deployed> | rollout:gate club-master-sync <base-url>',
  'ingest:worker-plan': 'ingest:worker-plan <STAGING_INGEST_ENABLED> <STAGING_INGEST_REPLICAS>',
  'deploy:check-sign-in': 'deploy:check-sign-in   (reads AUTH_TENANT_ID, AUTH_PORTAL_CLIENT_ID, AUTH_APP_CLIENT_ID)',
} as const;

export type CommandName = keyof typeof USAGE;
