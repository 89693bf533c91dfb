import type { CommandRun } from './command';

/**
 * Rollout checks of the production deploy (spec, Versioning), run against the deployed app:
 *
 * - ingest-status: SVC_INGEST_STATUS_ENABLED may go on only when the running release understands
 *   runnerKind event, i.e. GET /healthz/ingest lists `event` in `runnerKindsUnderstood` (reported
 *   with the switch off too). An older release would show the platform station yellow on every
 *   evening without shooting.
 * - club-master-sync: boxes may set SVC_CLUB_MASTER_SYNC_ENABLED=true only when the release has the
 *   sync endpoint; before that the cloud answers 404 (an unauthenticated probe gets 401 instead).
 *
 * The decisions are pure; the command line fetches, decides and exits non-zero on "no".
 */

export interface Probe {
  status: number;
  body: unknown;
}

export interface GateResult {
  pass: boolean;
  reason: string;
}

/** Finds `field` in the health body, whether at the top or inside a component block. */
function findField(value: unknown, field: string, depth = 0): unknown {
  if (depth > 3 || typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (field in record) return record[field];
  for (const nested of Object.values(record)) {
    const found = findField(nested, field, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Asks the release what it understands: `runnerKindsUnderstood`, which it reports whatever
 * SVC_INGEST_STATUS_ENABLED says. `runnerKind` cannot answer: it stays null while the switch is
 * off, which is the only time the gate is consulted.
 */
export function ingestStatusGate(probe: Probe): GateResult {
  if (probe.status === 404) return { pass: false, reason: 'GET /healthz/ingest answers 404: the release has no ingest health yet' };
  if (probe.status >= 500 && probe.status !== 503) {
    return { pass: false, reason: `GET /healthz/ingest answers ${probe.status}: the release is not healthy enough to judge` };
  }
  const understood = findField(probe.body, 'runnerKindsUnderstood');
  if (understood === undefined) {
    return { pass: false, reason: 'the release does not report runnerKindsUnderstood, so it predates runnerKind event' };
  }
  if (!Array.isArray(understood)) {
    return { pass: false, reason: `the release reports runnerKindsUnderstood ${JSON.stringify(understood)}, not a list` };
  }
  if (understood.includes('event')) return { pass: true, reason: 'the release understands runnerKind "event"' };
  return { pass: false, reason: `the release understands runnerKind ${JSON.stringify(understood)}, not "event"` };
}

export function clubMasterSyncGate(probe: Probe): GateResult {
  if (probe.status === 404) {
    return { pass: false, reason: 'POST /api/edge/clubs/sync answers 404: the release has no sync endpoint; boxes must keep the push off' };
  }
  if (probe.status >= 500) return { pass: false, reason: `POST /api/edge/clubs/sync answers ${probe.status}: cannot tell` };
  return { pass: true, reason: `POST /api/edge/clubs/sync exists (unauthenticated probe answered ${probe.status})` };
}

export type SwitchAction = 'enable' | 'disable' | 'keep';

/**
 * What the deploy does with SVC_INGEST_STATUS_ENABLED after the release is live. Switching off is
 * always allowed; switching on needs the gate.
 */
export function ingestStatusSwitch(
  desired: string | undefined,
  deployed: string | undefined,
  gate: GateResult,
): { action: SwitchAction } | { refuse: string } {
  const want = parseSwitch(desired, 'SVC_INGEST_STATUS_ENABLED');
  const has = parseSwitch(deployed, 'the deployed SVC_INGEST_STATUS_ENABLED');
  if (want === has) return { action: 'keep' };
  if (!want) return { action: 'disable' };
  return gate.pass ? { action: 'enable' } : { refuse: `SVC_INGEST_STATUS_ENABLED stays off: ${gate.reason}` };
}

function parseSwitch(value: string | undefined, name: string): boolean {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  throw new Error(`${name} must be true or false, not "${value}"`);
}

export async function probe(method: 'GET' | 'POST', url: string): Promise<Probe> {
  const response = await fetch(url, {
    method,
    headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
    body: method === 'POST' ? '{}' : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the gate reads the status alone.
  }
  return { status: response.status, body };
}

/** `rollout:gate ingest-status|club-master-sync <base-url> [desired deployed]`: 0 on "yes", 1 on "no". */
export const runRolloutGate: CommandRun = (args) => rolloutGate(args);

async function rolloutGate(argv: string[]): Promise<number> {
  const [check, baseUrl, desired, deployed] = argv;
  if (!baseUrl) throw new Error('usage: rollout:gate ingest-status|club-master-sync <base-url> [desired deployed]');
  const base = baseUrl.replace(/\/+$/, '');
  if (check === 'club-master-sync') {
    const result = clubMasterSyncGate(await probe('POST', `${base}/api/edge/clubs/sync`));
    console.log(result.reason);
    return result.pass ? 0 : 1;
  }
  if (check === 'ingest-status') {
    const gate = ingestStatusGate(await probe('GET', `${base}/healthz/ingest`));
    const decision = ingestStatusSwitch(desired, deployed, gate);
    if ('refuse' in decision) {
      console.error(decision.refuse);
      return 1;
    }
    console.log(`action=${decision.action}`);
    console.error(gate.reason);
    return 0;
  }
  throw new Error(`unknown check "${check}"`);
}
