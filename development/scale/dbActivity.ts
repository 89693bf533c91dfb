import type { Sql } from '../../shared/db/client';

/**
 * Where the database's time goes during the live run: every SAMPLE_MS the active statements of
 * the run's database (pg_stat_activity), counted by their kind (first words) and what they wait
 * for. A statement's share of the samples is its share of the database's busy connections.
 */
const SAMPLE_MS = 250;

export interface ActivityShare {
  statement: string;
  wait: string;
  share: number;
}

/** The statement's kind: its first words with whitespace folded, quoted names and numbers dropped. Pure. */
export function statementKind(query: string): string {
  return query
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\$\d+|'[^']*'|\b\d+\b/g, '?')
    .slice(0, 70);
}

/** Samples until `stop` resolves; answers the most frequent kinds with their share of all active samples. */
export async function sampleActivity(sql: Sql, stop: Promise<unknown>, top = 8): Promise<ActivityShare[]> {
  const counts = new Map<string, number>();
  let total = 0;
  let stopped = false;
  void stop.finally(() => (stopped = true));
  while (!stopped) {
    const rows = await sql<{ query: string; wait: string | null }[]>`
      select query, coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait from pg_stat_activity
      where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`;
    for (const row of rows) {
      const key = `${statementKind(row.query)}\u0000${row.wait ?? 'CPU'}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, count]) => {
      const [statement = '', wait = ''] = key.split('\u0000');
      return { statement, wait, share: total ? count / total : 0 };
    });
}
