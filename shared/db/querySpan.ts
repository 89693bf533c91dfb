import { telemetry, type Attributes, type ChildSpan } from '../telemetry/telemetry';

/**
 * The span of one PostgreSQL statement or transaction, named by its operation and table
 * (`SELECT notification`), with the statement's text as written in the code: `$1`, `$2` stand
 * where the values go, so no parameter value ever reaches telemetry. Undefined while telemetry is off.
 */
export function startQuerySpan(strings: unknown, pool: string): ChildSpan | undefined {
  const backend = telemetry();
  if (!backend) return undefined;
  const described = describeStatement(strings);
  // One attribute object per statement and pool, made once: the backend redacts it once.
  let attributes = described.attributes.get(pool);
  if (!attributes) {
    attributes = Object.freeze({
      'db.system': 'postgresql',
      'db.system.name': 'postgresql',
      'db.operation.name': described.operation,
      'db.collection.name': described.table,
      'db.query.text': described.text,
      'app.db.pool': pool,
    });
    described.attributes.set(pool, attributes);
  }
  return backend.databaseSpan(described.name, attributes);
}

const transactionAttributes = new Map<string, Readonly<Attributes>>();

export function startTransactionSpan(pool: string): ChildSpan | undefined {
  const backend = telemetry();
  if (!backend) return undefined;
  let attributes = transactionAttributes.get(pool);
  if (!attributes) {
    attributes = Object.freeze({
      'db.system': 'postgresql',
      'db.system.name': 'postgresql',
      'db.operation.name': 'BEGIN',
      'app.db.pool': pool,
    });
    transactionAttributes.set(pool, attributes);
  }
  return backend.databaseSpan('BEGIN transaction', attributes);
}

interface Described {
  name: string;
  operation: string;
  table?: string;
  text?: string;
  /** The span attributes of this statement per pool (`user`, `bulk`). */
  attributes: Map<string, Readonly<Attributes>>;
}

// sql.unsafe's statements: one description (and attribute objects) for all of them.
const unsafeStatement: Described = { name: 'QUERY', operation: 'QUERY', attributes: new Map() };
// Keyed by the call site's template strings (one array per call site), so each is read once.
const described = new WeakMap<object, Described>();
const MAX_TEXT = 2_000;

/**
 * What a statement does, from the strings of a tagged template. Anything else (sql.unsafe's
 * text, which may hold literal values) is named `QUERY` and its text left out.
 */
export function describeStatement(strings: unknown): Described {
  if (!isTemplateStrings(strings)) return unsafeStatement;
  const known = described.get(strings);
  if (known) return known;
  const text = strings.reduce((joined, part, index) => (index === 0 ? part : `${joined}$${index}${part}`), '').trim();
  const { operation, table } = operationOf(text);
  const result = {
    name: table ? `${operation} ${table}` : operation,
    operation,
    ...(table ? { table } : {}),
    text: text.slice(0, MAX_TEXT),
    attributes: new Map(),
  };
  described.set(strings, result);
  return result;
}

function isTemplateStrings(value: unknown): value is readonly string[] {
  return Array.isArray(value) && Array.isArray((value as { raw?: unknown }).raw);
}

const TABLE = '("?[a-z_][\\w$]*"?(?:\\."?[a-z_][\\w$]*"?)?)';
const TABLE_OF: Record<string, RegExp> = {
  SELECT: new RegExp(`\\bfrom\\s+${TABLE}`, 'i'),
  INSERT: new RegExp(`\\binto\\s+${TABLE}`, 'i'),
  UPDATE: new RegExp(`\\bupdate\\s+(?:only\\s+)?${TABLE}`, 'i'),
  DELETE: new RegExp(`\\bdelete\\s+from\\s+(?:only\\s+)?${TABLE}`, 'i'),
};

function operationOf(text: string): { operation: string; table?: string } {
  const first = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  // A statement with common table expressions is named by its main statement, after the last CTE.
  const operation =
    first === 'WITH' ? ([...text.matchAll(/\)\s*(select|insert|update|delete)\b/gi)].at(-1)?.[1]?.toUpperCase() ?? 'WITH') : first;
  const pattern = TABLE_OF[operation];
  // After the last CTE's closing parenthesis, which is left out so that the main statement is at depth 0.
  const searched = first === 'WITH' ? text.slice(text.search(new RegExp(`\\)\\s*${operation}\\b[^]*$`, 'i')) + 1) : text;
  // The table is the outer statement's: a subquery in the select list (a count beside the page,
  // say) comes before the outer `from` in the text but does not name what the statement reads.
  const table = pattern ? outermostMatch(pattern, searched)?.replace(/"/g, '') : undefined;
  return { operation, ...(table ? { table } : {}) };
}

/** The first match of `pattern` outside parentheses, else the first match anywhere. */
function outermostMatch(pattern: RegExp, text: string): string | undefined {
  const global = new RegExp(pattern.source, 'gi');
  let first: string | undefined;
  for (const match of text.matchAll(global)) {
    first ??= match[1];
    if (depthAt(text, match.index) === 0) return match[1];
  }
  return first;
}

function depthAt(text: string, end: number): number {
  let depth = 0;
  for (let i = 0; i < end; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')') depth -= 1;
  }
  return depth;
}
