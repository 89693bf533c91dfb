import type postgres from 'postgres';
import * as v from 'valibot';
import type { BoxConsentReport } from '../shared/boxConnector/consentReport';
import {
  StarterlistPushResultSchema,
  StarterlistSchema,
  type Starterlist,
  type StarterlistPushResult,
} from '../shared/freshness/starterlists';
import type { Logger } from '../shared/log/logger';
import { wallClock } from '../shared/time/timeZone';
import type { BoxCheckResult } from './boxFreshness';
import { createPushLoop, type PushLoopStatus, type PushRunError, type PushRunOutcome } from './pushLoop';
import { tracedFetch } from '../shared/telemetry/tracedFetch';

/**
 * The starter-list push of one box: reads the evening's starter lists from the mirror database
 * and sends them, with the box's own freshness check, to POST /api/edge/starterlists. Same loop,
 * status and 404 handling as the club master push; no personal data leaves the box (only the
 * columns below are read).
 */

export const STARTERLISTS_PATH = '/api/edge/starterlists';

/** Starter lists as the club software's mirror holds them. */
export const MIRROR_STARTERLIST_TABLE_DDL = `
  create table if not exists club_software_starterlist (
    id text primary key,
    name text,
    list_date date not null,
    discipline text not null,
    lane_count integer not null,
    starters_count integer not null
  )`;

// The clubs' calendar: "the evening's lists" are those of today and yesterday there (an evening
// may run past midnight).
const ZONE = 'Europe/Berlin';

export type PushFailureReason =
  | 'push_disabled'
  | 'mirror_unavailable'
  | 'cloud_unreachable'
  | 'cloud_endpoint_missing'
  | 'token_rejected'
  | 'push_rejected'
  | 'cloud_error';

export type PushError = PushRunError<PushFailureReason>;

export type PushOutcome = PushRunOutcome<StarterlistPushResult, string, PushFailureReason>;

export type StarterlistPushStatus = PushLoopStatus<StarterlistPushResult, string, PushFailureReason>;

export interface StarterlistPushConfig {
  enabled: boolean;
  intervalSeconds: number;
  edgeApiToken: string | undefined;
  cloudBaseUrl: string;
  cloudTimeoutSeconds: number;
}

class PushFailure extends Error {
  constructor(
    readonly reason: PushFailureReason,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

interface MirrorStarterlist {
  id: string;
  name: string | null;
  date: string;
  discipline: string;
  laneCount: number;
  startersCount: number;
}

/** The local calendar dates (YYYY-MM-DD) of yesterday and today in the clubs' zone. */
export function eveningDates(now: Date): [string, string] {
  const format = (instant: Date) => {
    const clock = wallClock(instant, ZONE);
    return new Date(Date.UTC(clock.year, clock.month, clock.day)).toISOString().slice(0, 10);
  };
  return [format(new Date(now.getTime() - 24 * 3600 * 1000)), format(now)];
}

export async function readMirrorStarterlists(mirror: postgres.Sql, now: Date): Promise<MirrorStarterlist[]> {
  const [yesterday, today] = eveningDates(now);
  return mirror<MirrorStarterlist[]>`
    select id, name, to_char(list_date, 'YYYY-MM-DD') as date, discipline, lane_count as "laneCount", starters_count as "startersCount"
    from club_software_starterlist
    where list_date between ${yesterday}::date and ${today}::date
    order by id`;
}

/** The lists the cloud accepts; a row that fails the cloud's rules is skipped and named. */
export function prepareStarterlists(rows: readonly MirrorStarterlist[]): { lists: Starterlist[]; skipped: string[] } {
  const lists: Starterlist[] = [];
  const skipped: string[] = [];
  for (const row of rows) {
    const parsed = v.safeParse(StarterlistSchema, { ...row, name: row.name ?? undefined });
    if (parsed.success) lists.push(parsed.output);
    else skipped.push(`${row.id}: ${v.getDotPath(parsed.issues[0]) ?? 'row'} ${parsed.issues[0].message}`);
  }
  return { lists, skipped };
}

async function push(
  config: StarterlistPushConfig,
  token: string,
  lists: Starterlist[],
  boxCheck: BoxCheckResult | null,
  consent: BoxConsentReport | undefined,
): Promise<StarterlistPushResult> {
  let response: Response;
  try {
    response = await tracedFetch(config.cloudBaseUrl + STARTERLISTS_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        starterlists: lists,
        boxCheck: boxCheck && {
          checkedAt: boxCheck.checkedAt,
          eveningStart: boxCheck.eveningStart,
          hitsAfterEvening: boxCheck.hitsAfterEvening,
        },
        ...(consent ? { consent } : {}),
      }),
      signal: AbortSignal.timeout(config.cloudTimeoutSeconds * 1000),
    });
  } catch (error) {
    throw new PushFailure(
      'cloud_unreachable',
      `The cloud at ${config.cloudBaseUrl} could not be reached: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  if (response.ok) {
    const parsed = v.safeParse(StarterlistPushResultSchema, await response.json().catch(() => undefined));
    if (!parsed.success) throw new PushFailure('cloud_error', 'The cloud answered the push with an unexpected body.', response.status);
    return parsed.output;
  }
  if (response.status === 404) {
    throw new PushFailure(
      'cloud_endpoint_missing',
      'The cloud answered 404: its release has no starter-list endpoint yet. Deploy the backend release with the endpoint before enabling the push.',
      404,
    );
  }
  if (response.status === 401 || response.status === 403)
    throw new PushFailure('token_rejected', `The cloud rejected the edge API token (${response.status}).`, response.status);
  if (response.status === 400 || response.status === 413)
    throw new PushFailure('push_rejected', `The cloud rejected the starter lists (${response.status}).`, response.status);
  throw new PushFailure('cloud_error', `The cloud failed to take the starter lists (${response.status}).`, response.status);
}

/**
 * The push loop (edge/pushLoop.ts); `boxCheck` supplies the latest box-side check to send along,
 * `consent` the club's data-sharing consent as the box holds it.
 */
export function createStarterlistPush(
  config: StarterlistPushConfig,
  mirror: postgres.Sql,
  log: Logger,
  options: { boxCheck?: () => BoxCheckResult | null; now?: () => Date; consent?: () => Promise<BoxConsentReport> } = {},
) {
  const now = options.now ?? (() => new Date());
  return createPushLoop({
    name: 'starterlist_push',
    enabled: config.enabled,
    intervalSeconds: config.intervalSeconds,
    edgeApiToken: config.edgeApiToken,
    now,
    log,
    disabled: {
      reason: 'push_disabled',
      message: 'The starter-list push is disabled (SVC_STARTERLIST_SYNC_ENABLED=false or no SVC_EDGE_API_TOKEN).',
    },
    async push(token) {
      const rows = await readMirrorStarterlists(mirror, now()).catch((error: unknown) => {
        throw new PushFailure(
          'mirror_unavailable',
          `The mirror database could not be read: ${error instanceof Error ? error.message : String(error)}.`,
        );
      });
      const { lists, skipped } = prepareStarterlists(rows);
      const consent = await options.consent?.();
      return { result: await push(config, token, lists, options.boxCheck?.() ?? null, consent), skipped };
    },
    failureOf: (error) =>
      error instanceof PushFailure ? error : new PushFailure('cloud_error', error instanceof Error ? error.message : String(error)),
    describe: (result) => ({ received: result.received, added: result.added }),
  });
}
export type StarterlistPushAgent = ReturnType<typeof createStarterlistPush>;
