import { functionDefinitions } from '../functions/definitions';
import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { getSettings } from '../shared/config/settings';
import { startDevHost, type DevHost } from './devhost/host';
import { prepareLocalEnvironment } from './local/environment';
import { stopOnSignals } from '../shared/process/signals';

/**
 * `npm start`: settings from local.settings(.sample).json, PostgreSQL (DATABASE_URL or embedded),
 * Azurite, migrations, then the local host on 127.0.0.1:PORT. Ctrl-C stops all of it.
 */
async function main(): Promise<void> {
  const environment = await prepareLocalEnvironment({ storage: true });
  const shutdown = async () => {
    await closeSql();
    await environment.release();
  };
  let host: DevHost;
  try {
    const migrations = await migrate(getSql());
    const port = getSettings().PORT;
    host = await startDevHost(functionDefinitions, { port, log: environment.log, setting: (name) => process.env[name] }).catch(
      (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
        throw new Error(`port ${port} is already in use (EADDRINUSE); set PORT to a free port, e.g. PORT=${port + 10} npm start`);
      },
    );
    console.log(`Settings:  ${environment.settingsFile}`);
    console.log(`Database:  ${environment.database.description} (${migrations.applied.length} migration(s) applied)`);
    console.log(`Storage:   ${environment.storage?.description}`);
    console.log(`Functions: ${functionDefinitions.map((d) => `${d.name} [${d.kind}]`).join(', ')}`);
    console.log(`Listening: ${host.url}  (try ${host.url}/healthz)`);
  } catch (error) {
    // Whatever this run started (embedded PostgreSQL, Azurite) must not outlive a failed start.
    await shutdown();
    throw error;
  }
  stopOnSignals(async () => {
    await host.close();
    await shutdown();
  });
}

main().catch((error: unknown) => {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
