import type { HitRow, SourcePosition } from '../ingest/debeziumEvents';
import { activeClubNumber, shooterId } from './hitRows';

/**
 * The k-th hit of the live evenings (pure): the clubs take turns, each club's shooters take turns
 * within it, so every club shoots all evening and each event has a record id of its own (from
 * `firstRecord` on, new for every run). A tracked club's last shooter is left out: the probes own
 * that shooter's score.
 */
export interface LiveShape {
  clubs: number;
  shooters: number;
  tracked: ReadonlySet<number>;
  firstRecord: number;
  now: number;
}

export interface LiveHit {
  /** Active club index. */
  club: number;
  row: HitRow;
  position: SourcePosition;
}

export function liveHit(k: number, shape: LiveShape): LiveHit {
  const club = k % shape.clubs;
  const round = Math.floor(k / shape.clubs);
  let shooter = round % shape.shooters;
  if (shooter === shape.shooters - 1 && shape.tracked.has(club)) shooter = 0;
  const record = shape.firstRecord + k;
  return {
    club,
    row: {
      id: record,
      club_id: activeClubNumber(club),
      shooter_id: Number(shooterId(shooter)),
      discipline: 'LG 10m',
      series: 1 + (Math.floor(round / 10) % 4),
      shot_no: 1 + (round % 10),
      value: Math.round((8 + ((k * 37) % 29) / 10) * 10) / 10,
      shot_at: (shape.now - 2000) * 1000,
    },
    position: { lsn: 40_000_000 + k * 64, txId: 90_000 + k, committedAtMs: shape.now - 500 },
  };
}
