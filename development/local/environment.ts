import { createLogger, type Logger } from '../../shared/log/logger';
import { ensureStorage, type RunningStorage } from './azurite';
import { ensureDatabase, type RunningDatabase } from './embeddedPostgres';
import { loadLocalSettings } from './localSettings';

// Apart, so that a command that needs only the settings loads neither PostgreSQL nor Azurite.
export { loadLocalSettings } from './localSettings';

export interface LocalEnvironment {
  settingsFile: string;
  database: RunningDatabase;
  storage?: RunningStorage;
  log: Logger;
  release(): Promise<void>;
}

/**
 * What every npm command needs: settings loaded, DATABASE_URL pointing at the configured or the
 * embedded PostgreSQL, and (when asked) AzureWebJobsStorage at a running Azurite.
 */
export async function prepareLocalEnvironment(options: { storage: boolean }): Promise<LocalEnvironment> {
  const settingsFile = loadLocalSettings();
  const log = createLogger({ minLevel: 'info' });
  const database = await ensureDatabase(process.env['DATABASE_URL'] || undefined);
  process.env['DATABASE_URL'] = database.url;
  let storage: RunningStorage | undefined;
  if (options.storage) {
    try {
      storage = await ensureStorage(process.env['AzureWebJobsStorage']);
    } catch (error) {
      await database.release();
      throw error;
    }
    process.env['AzureWebJobsStorage'] = storage.connectionString;
  }
  return {
    settingsFile,
    database,
    storage,
    log,
    release: async () => {
      await storage?.release();
      await database.release();
    },
  };
}
