import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { benchChallenge, seedInbox } from '../../bench/seed';
import { evaluateParticipations } from '../../shared/challenges/progress';
import { connect, type Sql } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
import { quoteIdentifier } from '../local/scratchDatabase';
import {
  activeClubCount,
  clubId,
  HIT_COPY_COLUMNS,
  hitCopyChunk,
  memberId,
  preloadMonths,
  type CatalogShape,
  type MonthSlice,
} from './hitRows';

/**
 * The preloaded federation year (docs/benchmarks.md, "Federation run"): a database of its own on
 * the local server, migrated; the catalog of clubs; members, shooter links, challenges and inboxes
 * of the clubs that shoot; and the year of hits, loaded with COPY into month tables that get their
 * indexes after the load and are then attached as partitions of club_data_hit. Building the
 * indexes after the load is allowed for a preload only: ingest writes into indexed partitions.
 */
export interface Preloaded {
  url: string;
  reused: boolean;
  hitSeconds: number | null;
  rowsPerSecond: number | null;
  /** Users whose send-to-board latency is probed, each the 50th shooter of one club. */
  tracked: { userId: string; clubIndex: number; challengeId: string }[];
  globalChallengeId: string;
  inboxUserId: string;
}

export interface PreloadShape extends CatalogShape {
  hits: number;
}

/**
 * The hits go in by COPY, past the apply statement that keeps each club's last arrival (migration
 * 036): the preload sets it as that statement would have, per club through the hits' index.
 */
async function lastArrivalsOfLoadedHits(sql: Sql): Promise<void> {
  await sql`
    insert into club_last_arrival as t (source_club_id, last_arrival_at)
    select c.vereins_id, newest.created_at
    from club c
    cross join lateral (
      select h.created_at from club_data_hit h where h.source_club_id = c.vereins_id order by h.created_at desc limit 1
    ) as newest
    where c.vereins_id is not null
    on conflict (source_club_id) do update set last_arrival_at = greatest(t.last_arrival_at, excluded.last_arrival_at)`;
}

/** Clubs whose last shooter is probed; the sender sends none of that shooter's hits. */
export const TRACKED_CLUBS = [0, 1, 2, 3, 4, 5, 6, 7];
/** Entries of the inbox whose first page is measured; every member has a few more. */
const INBOX_ENTRIES = 10_000;
const MEMBER_INBOX_ENTRIES = 3;
const LOADERS = 2;

const FINISHED = 'scale_preload';

/**
 * `reuse`: keep a finished preload of this size. `asIs`: and take it as it is, without loading a
 * month the retention drop of an earlier run removed (for a run of one part only).
 */
export async function preload(
  serverUrl: string,
  name: string,
  shape: PreloadShape,
  { reuse, asIs }: { reuse: boolean; asIs: boolean },
  log: (line: string) => void,
): Promise<Preloaded> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => undefined });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // The month the preloaded year ends in: the preload's own, kept when reused, so that a month
  // loaded again later holds the same rows as before, whatever the date of the later run.
  let anchor: Date | null = null;
  try {
    const [exists] = await admin`select 1 as one from pg_database where datname = ${name}`;
    if (exists && reuse) anchor = await finishedAt(url.toString(), shape);
    const reused = anchor !== null;
    if (!reused) {
      if (exists) log(`dropping the unfinished or unwanted database ${name}`);
      await admin.unsafe(`drop database if exists ${quoteIdentifier(name)} with (force)`);
      await admin.unsafe(`create database ${quoteIdentifier(name)}`);
    }
  } finally {
    await admin.end();
  }
  const reused = anchor !== null;
  const endsIn = anchor ?? new Date();
  const sql = connect({ url: url.toString(), max: 2 });
  try {
    if (!reused) {
      await migrate(sql);
      await seedPeople(sql, shape, log);
    }
    const loaded = reused && asIs ? { rows: 0, seconds: 0 } : await loadMissingMonths(url.toString(), shape, endsIn, log);
    if (!reused || loaded.rows > 0) {
      await sql`select setval('club_data_hit_id_seq', ${shape.hits + 1})`;
      await lastArrivalsOfLoadedHits(sql);
      await sql.unsafe('vacuum analyze');
      await sql.unsafe(`create table if not exists ${FINISHED} (hits bigint not null, clubs int not null, ends_in timestamptz not null)`);
      if (!reused) await sql`insert into ${sql(FINISHED)} values (${shape.hits}, ${shape.catalogClubs}, ${endsIn})`;
    }
    return {
      url: url.toString(),
      reused,
      hitSeconds: loaded.rows > 0 ? loaded.seconds : null,
      rowsPerSecond: loaded.rows > 0 ? Math.round(loaded.rows / loaded.seconds) : null,
      ...(await trackedAndBoards(sql)),
    };
  } finally {
    await sql.end();
  }
}

/** When the finished preload of this size was made (its year ends in that month); null when there is none. */
async function finishedAt(url: string, shape: PreloadShape): Promise<Date | null> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    const [row] = await sql<{ hits: number; clubs: number; endsIn: Date }[]>`
      select hits::float8 as hits, clubs, ends_in as "endsIn" from scale_preload`.catch(() => []);
    return row?.hits === shape.hits && row.clubs === shape.catalogClubs ? row.endsIn : null;
  } finally {
    await sql.end();
  }
}

/** The catalog, the shooting clubs' members with their links, challenges and inboxes. */
async function seedPeople(sql: Sql, shape: PreloadShape, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const active = activeClubCount(shape);
  const shooters = shape.shootersPerClub;
  await sql`
    insert into club (id, vereins_id, name)
    select 'scale-club-' || k, (100000 + k)::text, 'Catalog club ' || k from generate_series(0, ${shape.catalogClubs - 1}::int) as k`;
  // The shooting clubs have a box (an edge token) and a stored training plan, as the freshness check reads them.
  await sql`
    insert into club_training_plan (club_id, time_zone, evenings, updated_by)
    select 'scale-club-' || (a * 10), 'Europe/Berlin',
           '[{"weekday":"tuesday","start":"18:30","end":"21:00","endsNextDay":false},{"weekday":"friday","start":"19:00","end":"22:00","endsNextDay":false}]'::jsonb,
           'scale'
    from generate_series(0, ${active - 1}::int) as a`;
  await sql`
    insert into edge_token (club_id, token_hash, last_used_at)
    select 'scale-club-' || (a * 10), encode(sha256(('scale-token-' || a)::bytea), 'hex'), now() - interval '1 hour'
    from generate_series(0, ${active - 1}::int) as a`;
  await sql`
    insert into club_membership (club_id, user_id, role)
    select 'scale-club-' || (a * 10), 'scale-m-' || a || '-' || s, case when s = 0 then 'leader' else 'member' end
    from generate_series(0, ${active - 1}::int) as a, generate_series(0, ${shooters - 1}::int) as s`;
  await sql`
    insert into challenge_shooter_link (club_id, user_id, shooter_id, status, decided_at, decided_by)
    select 'scale-club-' || (a * 10), 'scale-m-' || a || '-' || s, (1001 + s)::text, 'confirmed', now() - interval '60 days', 'scale-m-' || a || '-0'
    from generate_series(0, ${active - 1}::int) as a, generate_series(0, ${shooters - 1}::int) as s`;
  await sql`
    insert into person_profile (user_id, display_name)
    select 'scale-m-' || a || '-' || s, 'Member ' || a || '/' || s
    from generate_series(0, ${active - 1}::int) as a, generate_series(0, ${shooters - 1}::int) as s`;
  // Every member in one global challenge (70 % share globally, 15 % within the club) and in
  // their club's challenge: the boards a member opens, at the federation's size.
  const global = await benchChallenge(sql, { title: 'Federation 1,000 shots', defaultVisibility: 'global' });
  await joinAll(sql, global.id, shooters, active, null);
  for (let a = 0; a < active; a += 1) {
    const club = await benchChallenge(sql, {
      scope: 'club',
      clubId: clubId(a * 10),
      title: `Club ${a} 1,000 shots`,
      defaultVisibility: 'club',
    });
    await joinAll(sql, club.id, shooters, 1, a);
  }
  await seedInbox(sql, memberId(0, 1), INBOX_ENTRIES);
  await sql`
    insert into notification (user_id, title, body, tone, kind, category, source, created_at)
    select 'scale-m-' || a || '-' || s, 'Entry ' || n, 'Body of entry ' || n, 'info', 'member', 'club', 'scale',
           now() - make_interval(hours => n)
    from generate_series(1, ${active - 1}::int) as a, generate_series(0, ${shooters - 1}::int) as s, generate_series(1, ${MEMBER_INBOX_ENTRIES}::int) as n`;
  log(
    `catalog ${shape.catalogClubs} clubs, ${active * shooters} members, challenges and inboxes in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

/** Members of `clubs` clubs from `firstClub` on join a challenge 14 days ago, with scores from an earlier evaluation. */
async function joinAll(sql: Sql, challengeId: string, shooters: number, clubs: number, firstClub: number | null): Promise<void> {
  const from = firstClub ?? 0;
  const to = from + clubs - 1;
  await sql`
    insert into challenge_participation (challenge_id, user_id, club_id, rules, reward_xp, deadline_at, joined_at, score, score_reached_at,
                                         share_within_club, share_globally)
    select ch.id, 'scale-m-' || a || '-' || s, 'scale-club-' || (a * 10), ch.rules, ch.reward_xp, now() + interval '16 days', now() - interval '14 days',
           ((a * 50 + s) * 7919) % 40, now() - interval '14 days' + make_interval(secs => a * 50 + s),
           (a * 50 + s) % 20 >= 14 and (a * 50 + s) % 20 < 17, (a * 50 + s) % 20 < 14
    from challenge ch, generate_series(${from}::int, ${to}::int) as a, generate_series(0, ${shooters - 1}::int) as s
    where ch.id = ${challengeId}`;
}

/** The month tables not attached yet: loaded (two at a time), indexed, attached. */
async function loadMissingMonths(
  url: string,
  shape: PreloadShape,
  endsIn: Date,
  log: (line: string) => void,
): Promise<{ rows: number; seconds: number }> {
  const sessionSettings = { synchronous_commit: 'off', maintenance_work_mem: '512MB' };
  const sql = postgres(url, { max: LOADERS, onnotice: () => undefined, connection: sessionSettings });
  try {
    const months = preloadMonths(shape.hits, endsIn);
    const attached = new Set(
      (
        await sql<{ name: string; rows: number }[]>`
          select c.relname as name, c.reltuples::float8 as rows from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'club_data_hit'::regclass`
      )
        .filter((row) => row.rows > 0)
        .map((row) => row.name),
    );
    const missing = months.filter((month) => !attached.has(month.partition));
    if (missing.length === 0) return { rows: 0, seconds: 0 };
    const definitions = await indexDefinitions(sql);
    const started = performance.now();
    let next = 0;
    let rows = 0;
    await Promise.all(
      Array.from({ length: LOADERS }, async () => {
        for (let month = missing[next++]; month; month = missing[next++]) {
          const monthStarted = performance.now();
          await loadMonth(sql, month, shape, definitions);
          rows += month.rows;
          const seconds = (performance.now() - started) / 1000;
          log(
            `  ${month.partition}: ${month.rows.toLocaleString('en')} rows in ${((performance.now() - monthStarted) / 1000).toFixed(0)} s ` +
              `(${rows.toLocaleString('en')} so far, ${Math.round(rows / seconds).toLocaleString('en')} rows/s with indexes)`,
          );
        }
      }),
    );
    return { rows, seconds: (performance.now() - started) / 1000 };
  } finally {
    await sql.end();
  }
}

interface IndexDefinitions {
  primaryKey: string;
  /** CREATE INDEX statements with `%TABLE%` where the table goes. */
  indexes: string[];
}

/** club_data_hit's keys as the partitioned table declares them, to build the same on a month table. */
async function indexDefinitions(sql: postgres.Sql): Promise<IndexDefinitions> {
  const [pk] = await sql<{ definition: string }[]>`
    select pg_get_constraintdef(oid) as definition from pg_constraint where conrelid = 'club_data_hit'::regclass and contype = 'p'`;
  const indexes = await sql<{ definition: string }[]>`
    select pg_get_indexdef(i.indexrelid) as definition from pg_index i
    where i.indrelid = 'club_data_hit'::regclass and not i.indisprimary`;
  return {
    primaryKey: pk?.definition ?? '',
    indexes: indexes.map(({ definition }) => definition.replace(/^CREATE (UNIQUE )?INDEX \S+ ON ONLY \S+ /, 'CREATE $1INDEX ON %TABLE% ')),
  };
}

const ROWS_PER_CHUNK = 2000;

/** One month: its empty partition (if the migrations made one) replaced by a table loaded with COPY, indexed, then attached. */
async function loadMonth(sql: postgres.Sql, month: MonthSlice, shape: CatalogShape, definitions: IndexDefinitions): Promise<void> {
  const table = month.partition;
  const next = new Date(Date.UTC(month.start.getUTCFullYear(), month.start.getUTCMonth() + 1, 1));
  if ((await sql`select to_regclass(${table}) as oid`)[0]?.oid) {
    await sql.unsafe(`alter table club_data_hit detach partition ${table}`);
    await sql.unsafe(`drop table ${table}`);
  }
  await sql.unsafe(`create table ${table} (like club_data_hit including defaults)`);
  let index = month.firstRow;
  const end = month.firstRow + month.rows;
  const source = new Readable({
    read() {
      if (index >= end) return void this.push(null);
      const to = Math.min(end, index + ROWS_PER_CHUNK);
      this.push(hitCopyChunk(index, to, month, shape));
      index = to;
    },
  });
  const copy = await sql.unsafe(`copy ${table} (${HIT_COPY_COLUMNS.join(', ')}) from stdin`).writable();
  await pipeline(source, copy);
  await sql.unsafe(`alter table ${table} add primary key ${definitions.primaryKey.replace(/^PRIMARY KEY /, '')}`);
  for (const definition of definitions.indexes) await sql.unsafe(definition.replace('%TABLE%', table));
  // The CHECK spares ATTACH its scan of the month; it goes again once attached.
  await sql.unsafe(
    `alter table ${table} add constraint ${table}_bounds check (created_at >= '${month.start.toISOString()}' and created_at < '${next.toISOString()}')`,
  );
  await sql.unsafe(
    `alter table club_data_hit attach partition ${table} for values from ('${month.start.toISOString()}') to ('${next.toISOString()}')`,
  );
  await sql.unsafe(`alter table ${table} drop constraint ${table}_bounds`);
}

/** The probed members, the global board and the inbox measured, read back from the database. */
async function trackedAndBoards(sql: Sql): Promise<Omit<Preloaded, 'url' | 'reused' | 'hitSeconds' | 'rowsPerSecond'>> {
  const [global] = await sql<
    { id: string }[]
  >`select id from challenge where scope = 'global' and created_by = 'bench' order by created_at limit 1`;
  const tracked = [];
  for (const a of TRACKED_CLUBS) {
    const [club] = await sql<{ id: string }[]>`select id from challenge where scope = 'club' and club_id = ${clubId(a * 10)} limit 1`;
    if (club) tracked.push({ userId: memberId(a, 49), clubIndex: a, challengeId: club.id });
  }
  // The preload's scores are made up; a probe's shot raises a score only once it is measured from
  // the shots. Measured now, so that the first evaluation after a probe cannot lower it below the
  // score the probe read before sending (which the probe would take for a shot not yet on the board).
  const probed = await sql<{ id: string }[]>`
    select p.id from challenge_participation p
    join unnest(${tracked.map((member) => member.challengeId)}::text[], ${tracked.map((member) => member.userId)}::text[]) as t(challenge_id, user_id)
      on p.challenge_id = t.challenge_id and p.user_id = t.user_id`;
  await evaluateParticipations(
    sql,
    probed.map((row) => row.id),
  );
  return { tracked, globalChallengeId: global?.id ?? '', inboxUserId: memberId(0, 1) };
}
