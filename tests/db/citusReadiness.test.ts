import { getSql } from '../../shared/db/client';

/**
 * The hit path kept ready for an elastic cluster (Citus on Flexible Server) distributed by the
 * source club (docs/capacity.md): a distributed table's every primary and unique key must hold the
 * distribution column, and a foreign key may only run between co-located distributed tables or
 * from a distributed table to a reference table, never from a table that stays local or
 * replicated to a distributed one. The tables below would be distributed by source_club_id.
 */
const HIT_PATH = ['club_data_hit', 'club_data_shooter', 'challenge_progress_touched', 'club_last_arrival'];
const DISTRIBUTION_COLUMN = 'source_club_id';

const sql = () => getSql();

/** The hit-path tables with their partitions (a partition is distributed with its parent). */
async function hitPathRelations(): Promise<{ name: string; parent: string }[]> {
  return sql()<{ name: string; parent: string }[]>`
    select c.relname as name, coalesce(p.relname, c.relname) as parent
    from pg_class c
    left join pg_inherits i on i.inhrelid = c.oid
    left join pg_class p on p.oid = i.inhparent
    where c.relkind in ('r', 'p') and coalesce(p.relname, c.relname) = any(${HIT_PATH}::text[])
      and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())`;
}

describe('the hit path is ready to be distributed by club', () => {
  it('finds every table of the hit path, partitions included', async () => {
    const relations = await hitPathRelations();
    expect(new Set(relations.map((relation) => relation.parent))).toEqual(new Set(HIT_PATH));
    expect(relations.some((relation) => relation.name === 'club_data_hit_default')).toBe(true);
  });

  it('holds the club in every primary and unique key of each of its tables', async () => {
    const keys = await sql()<{ table: string; index: string; columns: string[]; primary: boolean }[]>`
      select c.relname as table, ix.relname as index, x.indisprimary as primary,
             array(select a.attname::text from unnest(x.indkey) as k(attnum) join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum) as columns
      from pg_index x
      join pg_class c on c.oid = x.indrelid
      join pg_class ix on ix.oid = x.indexrelid
      where x.indisunique and c.relname = any(${(await hitPathRelations()).map((relation) => relation.name)}::text[])`;
    expect(
      keys
        .filter((key) => key.primary)
        .map((key) => key.table)
        .sort(),
    ).toEqual((await hitPathRelations()).map((relation) => relation.name).sort());
    const withoutClub = keys.filter((key) => !key.columns.includes(DISTRIBUTION_COLUMN)).map((key) => `${key.table}.${key.index}`);
    expect(withoutClub).toEqual([]);
  });

  it('takes no foreign key from a table that would not be distributed, and points none at one', async () => {
    const relations = (await hitPathRelations()).map((relation) => relation.name);
    const crossing = await sql()<{ constraint: string; from: string; to: string }[]>`
      select con.conname as constraint, f.relname as from, t.relname as to
      from pg_constraint con
      join pg_class f on f.oid = con.conrelid
      join pg_class t on t.oid = con.confrelid
      where con.contype = 'f' and (f.relname = any(${relations}::text[]) or t.relname = any(${relations}::text[]))`;
    // Between two hit-path tables a key would have to hold the club on both sides; none exists today.
    expect(crossing.filter((key) => !(relations.includes(key.from) && relations.includes(key.to)))).toEqual([]);
  });
});
