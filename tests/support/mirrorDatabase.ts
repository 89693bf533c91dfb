import postgres from 'postgres';
import { createScratchDatabase, type ScratchDatabase } from '../../development/local/scratchDatabase';
import { uniqueTag } from './fixtures';

export interface MirrorDatabase {
  /** The mirror's URL, as a box's SVC_MIRROR_DATABASE_URL names it. */
  readonly url: string;
  /** A one-connection pool on the mirror, to fill its tables as the club software would. */
  readonly sql: postgres.Sql;
}

/**
 * A database in the role of a box's mirror for one describe block, with the tables of `ddl`.
 * After the block, `beforeDrop` runs (to stop the agents reading it), then the database is dropped.
 */
export function useMirrorDatabase(ddl: readonly string[], beforeDrop: () => unknown = () => undefined): MirrorDatabase {
  let database: ScratchDatabase | undefined;
  let sql: postgres.Sql | undefined;
  beforeAll(async () => {
    database = await createScratchDatabase(process.env['DATABASE_URL'] ?? '', `mirror_${uniqueTag()}`, async (preparing) => {
      for (const statement of ddl) await preparing.unsafe(statement);
    });
    sql = postgres(database.url, { max: 1, onnotice: () => undefined });
  });
  afterAll(async () => {
    await beforeDrop();
    await database?.drop(...(sql ? [sql] : []));
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the mirror database is created in beforeAll');
    return value;
  };
  return {
    get url() {
      return started(database).url;
    },
    get sql() {
      return started(sql);
    },
  };
}
