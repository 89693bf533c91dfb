import { parseArgs } from 'node:util';

/** What `npm run scale` is asked to do (docs/benchmarks.md, "Federation run"). */
export interface ScaleOptions {
  /** Hit rows of the preloaded year, over PRELOAD_MONTHS monthly partitions. */
  hits: number;
  /** Clubs in the catalog; every tenth of them shoots (has members, hits and a box). */
  catalogClubs: number;
  shootersPerClub: number;
  /** Events per second the sender aims at. */
  rate: number;
  /** How long the sender sends. */
  seconds: number;
  /** Partitions of the local hub. */
  partitions: number;
  /** Seconds to wait after the send window for the service to catch up. */
  drainSeconds: number;
  /** Keep an already preloaded database of the same size instead of loading again. */
  reuse: boolean;
  /**
   * One part only: `preload` (a later run takes it with --reuse), `quiet` (the figures read on the
   * quiet database) or `live` (the live run alone, on the database as it is, a dropped month not
   * loaded again); null for all of them.
   */
  only: 'preload' | 'quiet' | 'live' | null;
  /** Drop the scale database at the end (otherwise it stays for the next --reuse). */
  drop: boolean;
}

/** The size: a tenth of the federation. */
export const FULL_SIZE = { hits: 55_000_000, catalogClubs: 14_000, shootersPerClub: 50 } as const;

const whole = (name: string, text: string | undefined, fallback: number, least: number): number => {
  if (text === undefined) return fallback;
  const value = Number(text.replace(/[_,]/g, ''));
  if (!Number.isInteger(value) || value < least) throw new Error(`--${name} must be a whole number of at least ${least}`);
  return value;
};

/** Parses the command line; throws with the option's name for a bad value. Pure. */
export function parseScaleOptions(argv: readonly string[]): ScaleOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      hits: { type: 'string' },
      clubs: { type: 'string' },
      rate: { type: 'string' },
      seconds: { type: 'string' },
      partitions: { type: 'string' },
      'drain-seconds': { type: 'string' },
      reuse: { type: 'boolean', default: false },
      drop: { type: 'boolean', default: false },
      only: { type: 'string' },
    },
    strict: true,
  });
  const catalogClubs = whole('clubs', values.clubs, FULL_SIZE.catalogClubs, 10);
  return {
    hits: whole('hits', values.hits, FULL_SIZE.hits, 1000),
    catalogClubs,
    shootersPerClub: FULL_SIZE.shootersPerClub,
    rate: whole('rate', values.rate, 8000, 1),
    seconds: whole('seconds', values.seconds, 300, 5),
    partitions: whole('partitions', values.partitions, 8, 1),
    drainSeconds: whole('drain-seconds', values['drain-seconds'], 120, 0),
    reuse: values.reuse,
    only: onlyPart(values.only),
    drop: values.drop,
  };
}

function onlyPart(text: string | undefined): ScaleOptions['only'] {
  if (text === undefined) return null;
  if (text === 'preload' || text === 'quiet' || text === 'live') return text;
  throw new Error('--only must be preload, quiet or live');
}

/** The scale database of one size: a run at another size never reuses (or drops) this one. */
export function scaleDatabaseName(options: Pick<ScaleOptions, 'hits' | 'catalogClubs'>): string {
  return `scale_${options.catalogClubs}c_${options.hits}h`;
}
