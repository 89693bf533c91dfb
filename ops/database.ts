import { connect, type Sql } from '../shared/db/client';
import type { CommandEnv } from './command';
import { commandSettings, requireSetting } from './settings';

export interface CommandDatabase {
  sql: Sql;
  /** Which database, for the command's first line; never the password. */
  description: string;
  close(): Promise<void>;
}

/**
 * The pool of a command that changes the service database: DATABASE_URL is required, so an empty
 * deployment secret stops the command before it touches anything.
 */
export function openCommandDatabase(env: CommandEnv): CommandDatabase {
  const settings = commandSettings(['DATABASE_URL', 'DATABASE_POOL_MAX'], env);
  const url = requireSetting(settings.DATABASE_URL, 'DATABASE_URL', 'the PostgreSQL connection string of the service database');
  const sql = connect({ url, max: settings.DATABASE_POOL_MAX, name: 'command' });
  return { sql, description: describeDatabaseUrl(url), close: () => sql.end({ timeout: 5 }) };
}

/** `postgres://user@host:port/database` without the password (or a placeholder for an unreadable URL). */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `PostgreSQL ${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL is not a URL)';
  }
}
