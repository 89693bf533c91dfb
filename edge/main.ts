import path from 'node:path';
import postgres from 'postgres';
import { createDatabaseIfMissing, embeddedServerUrl, ensureDatabase, type RunningDatabase } from '../scripts/local/embeddedPostgres';
import { stopOnSignals } from '../shared/process/signals';
import { createLogger } from '../shared/log/logger';
import { parseEdgeConfig, withEnvFile } from './config';
import { MIRROR_CLUB_TABLE_DDL } from './mirror';
import { startAgent } from './startAgent';

const LOCAL_MIRROR_DATABASE = 'box_mirror';

/**
 * `npm run edge`: the on-site agent with settings from edge/.env and the environment. Without
 * SVC_MIRROR_DATABASE_URL it uses the embedded PostgreSQL of this checkout (database box_mirror,
 * with an empty club_software_club table) so it starts without any setup.
 */
async function main(): Promise<void> {
  const config = parseEdgeConfig(withEnvFile(process.env, path.join(__dirname, '.env')));
  const log = createLogger({ minLevel: 'info', fields: { component: 'club-master-agent' } });

  let embedded: RunningDatabase | undefined;
  let mirrorDatabaseUrl = config.mirrorDatabaseUrl;
  if (!mirrorDatabaseUrl) {
    embedded = await ensureDatabase(undefined);
    await createDatabaseIfMissing(LOCAL_MIRROR_DATABASE);
    mirrorDatabaseUrl = embeddedServerUrl(LOCAL_MIRROR_DATABASE);
    const setup = postgres(mirrorDatabaseUrl, { max: 1, onnotice: () => undefined });
    await setup.unsafe(MIRROR_CLUB_TABLE_DDL);
    await setup.end();
  }

  const agent = await startAgent({ ...config, mirrorDatabaseUrl }, log);
  console.log(`Box agent: ${agent.url}  (GET ${agent.url}/api/club-master-sync/status)`);
  console.log(`Cloud:     ${config.cloudBaseUrl}`);
  console.log(`Mirror:    ${embedded ? `embedded PostgreSQL, database ${LOCAL_MIRROR_DATABASE}` : 'SVC_MIRROR_DATABASE_URL'}`);
  console.log(
    `Push:      ${config.syncEnabled ? `enabled, every ${config.syncIntervalSeconds} s` : 'disabled (SVC_CLUB_MASTER_SYNC_ENABLED=false)'}`,
  );

  stopOnSignals(async () => {
    await agent.close();
    await embedded?.release();
  });
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
