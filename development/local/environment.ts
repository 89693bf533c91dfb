import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger, type Logger } from '../../shared/log/logger';
import { ensureStorage, type RunningStorage } from './azurite';
import { ensureDatabase, type RunningDatabase } from './embeddedPostgres';
import { repoRoot } from './paths';

/**
 * Loads app settings for local commands the way `func start` does: the Values of
 * local.settings.json (or the committed sample when there is none), without overriding
 * variables already set in the environment.
 */
export function loadLocalSettings(): string {
  const own = path.join(repoRoot, 'local.settings.json');
  const file = existsSync(own) ? own : path.join(repoRoot, 'local.settings.sample.json');
  const { Values } = JSON.parse(readFileSync(file, 'utf8')) as { Values: Record<string, string> };
  for (const [name, value] of Object.entries(Values)) {
    if (process.env[name] === undefined) process.env[name] = value;
  }
  return path.basename(file);
}

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
