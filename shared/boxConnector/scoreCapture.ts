/**
 * Which Kafka Connect connectors carry score data out of the club, for the consent gate: the gate
 * pauses every one of them while the consent is not GRANTED, whoever created it. Fails closed: a
 * Debezium connector counts unless its table.include.list names tables and none of them is a
 * score table; any other connector counts when one of its configuration values names a score table.
 */

/** The mirror's tables whose rows are score data (infra/connector/debezium-club-data.json). */
export const SCORE_TABLES = ['public.hits', 'public.shooters'] as const;

const SCORE_TABLE_NAMES = new Set<string>([...SCORE_TABLES, ...SCORE_TABLES.map((table) => table.replace(/^public\./, ''))]);

export function capturesScoreData(config: Record<string, string>): boolean {
  if ((config['connector.class'] ?? '').startsWith('io.debezium.connector.')) {
    const included = listItems(config['table.include.list'] ?? config['table.whitelist'] ?? '');
    if (included.length === 0) return true;
    return included.some((pattern) => SCORE_TABLES.some((table) => matchesWhole(pattern, table)));
  }
  return Object.values(config).some((value) => listItems(value).some((item) => SCORE_TABLE_NAMES.has(item.toLowerCase())));
}

function listItems(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Debezium's include lists hold regular expressions matched against the whole `schema.table`. */
function matchesWhole(pattern: string, table: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'i').test(table);
  } catch {
    // A pattern JavaScript cannot read may still match on the Java side: count it.
    return true;
  }
}
