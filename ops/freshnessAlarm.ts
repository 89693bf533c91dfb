/**
 * The freshness alarm of the scheduled workflow (.github/workflows/freshness-alarm.yml): asks a
 * deployment for its data freshness and turns the answer into an exit code and printed lines.
 * The hosted runner's failure mail is the delivery path, so a red run must say in its log what is wrong.
 */

/** Exit codes of `npm run freshness:check`. */
export const EXIT = {
  /** ok or unknown (no club delivered yet), or the alarm is snoozed. */
  ok: 0,
  /** At least one club is stale. */
  stale: 1,
  /** The check itself failed: status error, an unreachable deployment or an unexpected answer. */
  error: 2,
  /** Bad arguments or a malformed SVC_FRESHNESS_SNOOZE_UNTIL. */
  usage: 64,
} as const;

export interface AlarmOptions {
  /** Base URL of the deployment, e.g. https://app.example.net. */
  url: string;
  /** A platform admin's bearer token; lets the alarm list the stale clubs with their hints. */
  token?: string;
  /** SVC_FRESHNESS_SNOOZE_UNTIL as set (possibly empty). */
  snoozeUntil?: string;
  now: Date;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface AlarmResult {
  exitCode: number;
  lines: string[];
}

/**
 * The snooze's end: an ISO date (`2026-12-27`, meaning its start, 00:00 UTC) or timestamp; undefined
 * when unset or empty; an Error when malformed (a typo must not silently mute or unmute the alarm).
 */
export function parseSnooze(value: string | undefined): Date | undefined | Error {
  const text = value?.trim();
  if (!text) return undefined;
  const isoDate = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
  const parsed = new Date(isoDate ? `${text}T00:00:00Z` : text);
  if ((!isoDate && !isoTimestamp) || Number.isNaN(parsed.getTime()) || (isoDate && !parsed.toISOString().startsWith(text))) {
    return new Error(`SVC_FRESHNESS_SNOOZE_UNTIL must be an ISO date (2026-12-27) or timestamp; got "${text.slice(0, 40)}".`);
  }
  return parsed;
}

interface Overview {
  status: string;
  checked: number;
  fresh: number;
  stale: number;
  unknown: number;
  checkedAt?: string;
}

interface StaleEntry {
  vereinsId: string;
  name: string;
  lastArrivalAt: string | null;
  evening: { start: string };
  hint: { code: string; message: string } | null;
}

function isOverview(value: unknown): value is Overview {
  const body = value as Partial<Overview> | null;
  return (
    typeof body?.status === 'string' &&
    ['checked', 'fresh', 'stale', 'unknown'].every((key) => typeof body[key as keyof Overview] === 'number')
  );
}

export async function runFreshnessAlarm(options: AlarmOptions): Promise<AlarmResult> {
  const snooze = parseSnooze(options.snoozeUntil);
  if (snooze instanceof Error) return { exitCode: EXIT.usage, lines: [snooze.message] };
  if (snooze && snooze.getTime() > options.now.getTime()) {
    return {
      exitCode: EXIT.ok,
      lines: [`Freshness alarm snoozed until ${snooze.toISOString()} (SVC_FRESHNESS_SNOOZE_UNTIL); not checked.`],
    };
  }
  const get = options.fetch ?? fetch;
  const base = options.url.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? 30_000;

  let overview: Overview;
  try {
    const response = await get(`${base}/healthz/data-freshness`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeout),
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!isOverview(body))
      return {
        exitCode: EXIT.error,
        lines: [`ERROR ${base}/healthz/data-freshness answered ${response.status} without a freshness result.`],
      };
    overview = body;
  } catch (error) {
    return { exitCode: EXIT.error, lines: [`ERROR ${base}/healthz/data-freshness could not be reached: ${describe(error)}.`] };
  }

  const counts = `checked ${overview.checked}, fresh ${overview.fresh}, stale ${overview.stale}, unknown ${overview.unknown}`;
  if (overview.status === 'ok' || overview.status === 'unknown') {
    return { exitCode: EXIT.ok, lines: [`Data freshness ${overview.status}: ${counts}.`] };
  }
  const lines = [`Data freshness ${overview.status.toUpperCase()}: ${counts}.`];
  if (overview.status === 'error') {
    lines.push('The freshness check itself is disturbed (query failed, or arrivals lie in the future: database time wrong).');
  }
  lines.push(...(await staleClubLines(get, base, options.token, timeout)));
  return { exitCode: overview.status === 'stale' ? EXIT.stale : EXIT.error, lines };
}

/** One line per stale club with its rule-6 hint, from the diagnostics summary (needs a platform admin token). */
async function staleClubLines(get: typeof fetch, base: string, token: string | undefined, timeout: number): Promise<string[]> {
  if (!token) return ['Set FRESHNESS_CHECK_TOKEN (a platform admin token) to list each stale club with its hint.'];
  const lines: string[] = [];
  let offset: number | null = 0;
  try {
    while (offset !== null) {
      const response = await get(`${base}/api/admin/diagnostics/summary?status=stale&limit=1000&offset=${offset}`, {
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(timeout),
      });
      if (!response.ok) return [...lines, `The diagnostics summary answered ${response.status}; stale clubs cannot be listed.`];
      const body = (await response.json()) as { dataFreshness?: { clubs?: StaleEntry[]; nextOffset?: number | null } };
      for (const club of body.dataFreshness?.clubs ?? []) {
        lines.push(
          `STALE ${club.vereinsId} ${club.name}: evening ${club.evening.start}, last arrival ${club.lastArrivalAt ?? 'never'}` +
            (club.hint ? ` - ${club.hint.code}: ${club.hint.message}` : ''),
        );
      }
      offset = body.dataFreshness?.nextOffset ?? null;
    }
  } catch (error) {
    lines.push(`The diagnostics summary could not be read: ${describe(error)}.`);
  }
  return lines;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
