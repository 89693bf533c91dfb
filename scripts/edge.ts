import path from 'node:path';
import postgres from 'postgres';
import { parseEdgeConfig, withEnvFile } from '../edge/config';
import { MIRROR_CLUB_TABLE_DDL } from '../edge/mirror';
import { exitOnStartupFailure, runBoxAgent } from '../edge/run';
import { createDatabaseIfMissing, ensureDatabase } from './local/embeddedPostgres';
import { repoRoot } from './local/paths';

const LOCAL_MIRROR_DATABASE = 'box_mirror';

/**
 * `npm run edge`: the box agent from source with settings from edge/.env and the environment.
 * Without SVC_MIRROR_DATABASE_URL it uses the embedded PostgreSQL of this checkout (database
 * box_mirror, with an empty club_software_club table) so it starts without any setup; it stops
 * that server on exit only if it started it.
 */
async function main(): Promise<void> {
  const config = parseEdgeConfig(withEnvFile(process.env, path.join(repoRoot, 'edge', '.env')));
  if (config.mirrorDatabaseUrl) {
    await runBoxAgent({ ...config, mirrorDatabaseUrl: config.mirrorDatabaseUrl }, { mirrorDescription: 'SVC_MIRROR_DATABASE_URL' });
    return;
  }
  const embedded = await ensureDatabase(undefined);
  try {
    const mirrorDatabaseUrl = embedded.serverUrl(LOCAL_MIRROR_DATABASE);
    await createDatabaseIfMissing(LOCAL_MIRROR_DATABASE, embedded.serverUrl());
    const setup = postgres(mirrorDatabaseUrl, { max: 1, onnotice: () => undefined });
    await setup.unsafe(MIRROR_CLUB_TABLE_DDL).finally(() => setup.end());
    await runBoxAgent(
      { ...config, mirrorDatabaseUrl },
      { mirrorDescription: embedded.description.replace(embedded.url, mirrorDatabaseUrl), release: () => embedded.release() },
    );
  } catch (error) {
    await embedded.release();
    throw error;
  }
}

main().catch(exitOnStartupFailure);
