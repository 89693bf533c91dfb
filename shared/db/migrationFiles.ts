import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The two kinds of file the migration runner (./migrate.ts) applies, read from a migrations folder:
 *
 * - numbered migrations `NNN_name.sql`, the schema: applied once each, in version order;
 * - live files `live/name.sql`, the database's functions, trigger functions with their triggers,
 *   and views: each holds one object's (or one small family's) whole, current definition and is
 *   applied again whenever its content changes, like Flyway's repeatable migrations.
 *
 * A live file names what must be applied before it on a header line `-- requires: a, b`. Live
 * files run in name order, each after its requirements; a file's checksum covers its
 * requirements' checksums, so a changed requirement applies its dependants again too.
 * See docs/decisions/003-migration-runner.md.
 */
export interface MigrationFile {
  version: string;
  name: string;
  checksum: string;
  sql: string;
}

export interface LiveFile {
  name: string;
  requires: string[];
  checksum: string;
  sql: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export const LIVE_FOLDER = 'live';

const MIGRATION_PATTERN = /^(\d{3,})_([a-z0-9_]+)\.sql$/;
const LIVE_PATTERN = /^([a-z0-9_]+)\.sql$/;
const REQUIRES_PATTERN = /^--\s*requires:\s*(.*)$/im;
// The runner wraps each file in its own transaction; a file that commits by itself would leave a
// half-applied file recorded as not applied. PL/pgSQL's `begin` opens a block, never at a line's
// start followed by `;`.
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|start\s+transaction)\s*(transaction|work)?\s*;/im;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function readSql(dir: string, fileName: string, kind: string): Promise<string> {
  const sql = await readFile(path.join(dir, fileName), 'utf8');
  if (TRANSACTION_CONTROL.test(sql)) {
    throw new MigrationError(`${kind} ${fileName} controls its own transaction; the runner already wraps each file in one`);
  }
  return sql;
}

const sqlFileNames = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.sql'))
    .map((entry) => entry.name)
    .sort();

/** The numbered migrations of a folder in version order. */
export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const files: MigrationFile[] = [];
  const seen = new Set<string>();
  for (const fileName of await sqlFileNames(dir)) {
    const match = MIGRATION_PATTERN.exec(fileName);
    if (!match) throw new MigrationError(`Migration file name ${fileName} does not match NNN_name.sql`);
    const [, version, name] = match as unknown as [string, string, string];
    if (seen.has(version)) throw new MigrationError(`Two migration files share version ${version}`);
    seen.add(version);
    const sql = await readSql(dir, fileName, 'Migration');
    files.push({ version, name, sql, checksum: sha256(sql) });
  }
  return files;
}

/**
 * The live files of a migrations folder in the order they are applied. The `live` folder must
 * exist, even empty: a build that left it out would otherwise run without its functions.
 */
export async function readLiveFiles(migrationsDir: string): Promise<LiveFile[]> {
  const dir = path.join(migrationsDir, LIVE_FOLDER);
  const fileNames = await sqlFileNames(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new MigrationError(`${migrationsDir} has no ${LIVE_FOLDER} folder of live files`);
    throw error;
  });
  const texts = new Map<string, { requires: string[]; sql: string }>();
  for (const fileName of fileNames) {
    const name = LIVE_PATTERN.exec(fileName)?.[1];
    if (!name) throw new MigrationError(`Live file name ${fileName} does not match name.sql`);
    const sql = await readSql(dir, fileName, 'Live file');
    const requires = (REQUIRES_PATTERN.exec(sql)?.[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    texts.set(name, { requires, sql });
  }
  return inDependencyOrder(texts);
}

function inDependencyOrder(texts: Map<string, { requires: string[]; sql: string }>): LiveFile[] {
  const ordered = new Map<string, LiveFile>();
  const visiting = new Set<string>();
  const visit = (name: string, from: string): LiveFile => {
    const done = ordered.get(name);
    if (done) return done;
    const text = texts.get(name);
    if (!text) throw new MigrationError(`Live file ${from}.sql requires ${name}, which is not in this build`);
    if (visiting.has(name)) throw new MigrationError(`Live files require each other in a circle through ${name}.sql`);
    visiting.add(name);
    const requirements = text.requires.map((required) => visit(required, name));
    const checksum = sha256([text.sql, ...requirements.map((required) => required.checksum)].join('\n'));
    const file = { name, requires: text.requires, checksum, sql: text.sql };
    ordered.set(name, file);
    return file;
  };
  for (const name of texts.keys()) visit(name, name);
  return [...ordered.values()];
}
