import postgres from 'postgres';
import { createScratchDatabase } from '../../development/local/scratchDatabase';
import { useAround } from './around';
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
  const mirror = useAround(
    'the mirror database',
    async () => {
      const database = await createScratchDatabase(process.env['DATABASE_URL'] ?? '', `mirror_${uniqueTag()}`, async (preparing) => {
        for (const statement of ddl) await preparing.unsafe(statement);
      });
      return { database, sql: postgres(database.url, { max: 1, onnotice: () => undefined }) };
    },
    async ({ database, sql }) => {
      await beforeDrop();
      await database.drop(sql);
    },
  );
  return {
    get url() {
      return mirror().database.url;
    },
    get sql() {
      return mirror().sql;
    },
  };
}
