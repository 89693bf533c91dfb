import { runCommand } from '../ops/runCommand';
import type { LocalEnvironment } from './local/environment';

/** What a production command needs of this checkout's local environment before it runs. */
interface LocalNeeds {
  database: boolean;
  storage: boolean;
  /** The hub of this checkout's running `npm start` for the development connection string. */
  localHub: boolean;
}

const NEEDS: Record<string, LocalNeeds> = {
  migrate: { database: true, storage: false, localHub: false },
  'edge:token': { database: true, storage: false, localHub: false },
  'seed:challenges': { database: true, storage: false, localHub: false },
  'ingest:backfill': { database: true, storage: true, localHub: true },
  'ingest:backfill-shooters': { database: true, storage: true, localHub: true },
  'ingest:replay-dead-letters': { database: true, storage: false, localHub: false },
};

/**
 * `npm run <command>` of a production command (ops/): first the local environment of
 * `npm start` (settings from local.settings(.sample).json where unset, DATABASE_URL or the
 * embedded PostgreSQL, Azurite, the local hub), then the same command `node dist/ops.js` runs.
 * Commands that need none of it (freshness:check, rollout:gate, ...) run as they are.
 */
async function main(argv: string[]): Promise<number> {
  const needs = NEEDS[argv[0] ?? ''];
  if (!needs) return runCommand(argv, process.env);
  // An identity-based storage connection (a cloud container) must not be replaced by the local
  // settings' Azurite default.
  const identityStorage =
    !process.env['AzureWebJobsStorage'] &&
    Boolean(process.env['AzureWebJobsStorage__accountName'] || process.env['AzureWebJobsStorage__tableServiceUri']);
  if (needs.storage && identityStorage) process.env['AzureWebJobsStorage'] = '';
  // Loaded here, not above: the commands that need no local environment start without its modules.
  const { prepareLocalEnvironment } = await import('./local/environment');
  const environment: LocalEnvironment = await prepareLocalEnvironment({ storage: needs.storage && !identityStorage });
  try {
    const hub = needs.localHub
      ? (await import('./local/eventHubs/developmentHub')).effectiveConnectionString(process.env['INGEST_EVENTHUB_CONNECTION'])
      : undefined;
    if (hub) process.env['INGEST_EVENTHUB_CONNECTION'] = hub;
    console.log(`Local environment: ${environment.database.description}`);
    return await runCommand(argv, process.env);
  } finally {
    await environment.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
