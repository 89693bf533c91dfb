/**
 * The preloaded year of hits, row by row, as COPY text lines. Pure and deterministic: row `i`
 * is always the same row, so a month can be loaded again on its own (after the retention drop
 * measured it away) and two connections can load different months side by side.
 *
 * Row i belongs to active club i mod clubs and its shooter (i div clubs) mod shooters; its
 * record id is (i div clubs) + 1, unique within the club across the year. Arrival times spread
 * evenly over the row's month (up to `now` for the current one); shot_at is two seconds earlier.
 */
export const PRELOAD_MONTHS = 13;

/** The columns of club_data_hit each line holds, in order. */
export const HIT_COPY_COLUMNS = [
  'id',
  'source_club_id',
  'created_at',
  'source_record_id',
  'shooter_id',
  'discipline',
  'series',
  'shot_no',
  'value',
  'shot_at',
  'source_lsn',
  'updated_at',
  'data_lsn',
] as const;

const DISCIPLINES = ['LG 10m', 'LP 10m', 'KK 50m'];

export interface CatalogShape {
  catalogClubs: number;
  shootersPerClub: number;
}

/** Every tenth catalog club shoots: 1,400 of 14,000. */
export const activeClubCount = (shape: CatalogShape) => Math.floor(shape.catalogClubs / 10);
/** The club number (vereins_id, source_club_id) of catalog club k. */
export const clubNumber = (k: number) => String(100_000 + k);
/** The service's club id of catalog club k. */
export const clubId = (k: number) => `scale-club-${k}`;
/** The club number of active club a (catalog club 10·a). */
export const activeClubNumber = (a: number) => clubNumber(a * 10);
/** The shooter record id of the s-th shooter of a club (0-based), as the box numbers them. */
export const shooterId = (s: number) => String(1001 + s);
/** The member linked to shooter s of active club a. */
export const memberId = (a: number, s: number) => `scale-m-${a}-${s}`;

export interface MonthSlice {
  /** First instant of the month (UTC). */
  start: Date;
  /** club_data_hit_pYYYY_MM */
  partition: string;
  /** Global index of the month's first row. */
  firstRow: number;
  rows: number;
  /** Arrivals spread over [start, end). */
  end: Date;
}

/** The PRELOAD_MONTHS months up to and including the month of `now`, oldest first, with their rows. */
export function preloadMonths(hits: number, now: Date): MonthSlice[] {
  const perMonth = Math.floor(hits / PRELOAD_MONTHS);
  return Array.from({ length: PRELOAD_MONTHS }, (_, index) => {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (PRELOAD_MONTHS - 1 - index), 1));
    const next = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    const last = index === PRELOAD_MONTHS - 1;
    return {
      start,
      partition: `club_data_hit_p${start.getUTCFullYear()}_${String(start.getUTCMonth() + 1).padStart(2, '0')}`,
      firstRow: index * perMonth,
      rows: last ? hits - index * perMonth : perMonth,
      end: last ? new Date(Math.min(next.getTime(), now.getTime() - 60_000)) : next,
    };
  });
}

/** The COPY text line (tab-separated, newline-terminated) of global row `index` in `month`. */
export function hitCopyLine(index: number, month: MonthSlice, shape: CatalogShape): string {
  const clubs = activeClubCount(shape);
  const round = Math.floor(index / clubs);
  const within = index - month.firstRow;
  const arrived = month.start.getTime() + Math.floor(((within + 0.5) / month.rows) * (month.end.getTime() - month.start.getTime()));
  const createdAt = new Date(arrived).toISOString();
  const value = ((index * 7919) % 109) / 10;
  const lsn = 1_000_000 + index * 64;
  return (
    `${index + 1}\t${activeClubNumber(index % clubs)}\t${createdAt}\t${round + 1}\t${shooterId(round % shape.shootersPerClub)}\t` +
    `${DISCIPLINES[index % 3]}\t${1 + (Math.floor(index / 10) % 4)}\t${1 + (index % 10)}\t${value.toFixed(1)}\t` +
    `${new Date(arrived - 2000).toISOString()}\t${lsn}\t${createdAt}\t${lsn}\n`
  );
}

/** The lines of rows [from, to) of a month, joined: one chunk for the COPY stream. */
export function hitCopyChunk(from: number, to: number, month: MonthSlice, shape: CatalogShape): string {
  let chunk = '';
  for (let index = from; index < to; index += 1) chunk += hitCopyLine(index, month, shape);
  return chunk;
}
