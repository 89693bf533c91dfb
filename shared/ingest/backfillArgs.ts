import type { BackfillSelection } from './backfill';

/**
 * The backfill commands' arguments, pure:
 * `ingest:backfill <clubId>:<recordId> ... [--group=<id>] [--new-group] [--force]` and
 * `ingest:backfill-shooters <clubId> ... [--group=<id>] [--new-group] [--force]`.
 */
export interface BackfillArgs {
  selection: BackfillSelection;
  /** Undefined: the INGEST_BACKFILL_CONSUMER_GROUP setting. */
  group: string | undefined;
  fresh: boolean;
  force: boolean;
}

export type ParsedArgs = { ok: true; args: BackfillArgs } | { ok: false; error: string };

const ID = /^[A-Za-z0-9_.-]{1,64}$/;
const GROUP = /^[A-Za-z0-9$][A-Za-z0-9._$-]{0,49}$/;

export function parseBackfillArgs(kind: BackfillSelection['kind'], argv: readonly string[]): ParsedArgs {
  let group: string | undefined;
  let fresh = false;
  let force = false;
  const positional: string[] = [];
  for (const arg of argv) {
    if (arg === '--new-group') fresh = true;
    else if (arg === '--force') force = true;
    else if (arg.startsWith('--group=')) {
      group = arg.slice('--group='.length);
      if (!GROUP.test(group))
        return { ok: false, error: `--group: "${group}" is not a consumer group name (letters, digits, . _ - $; up to 50)` };
    } else if (arg.startsWith('--')) return { ok: false, error: `unknown option ${arg}` };
    else positional.push(arg);
  }
  if (kind === 'shooters') {
    if (!positional.length) return { ok: false, error: 'name at least one club id' };
    const bad = positional.find((id) => !ID.test(id));
    if (bad !== undefined) return { ok: false, error: `"${bad}" is not a club id` };
    return { ok: true, args: { selection: { kind, clubIds: [...new Set(positional)] }, group, fresh, force } };
  }
  if (!positional.length) return { ok: false, error: 'name at least one <clubId>:<recordId>' };
  const records: { clubId: string; recordId: string }[] = [];
  for (const pair of positional) {
    const at = pair.indexOf(':');
    const clubId = pair.slice(0, at);
    const recordId = pair.slice(at + 1);
    if (at < 0 || !ID.test(clubId) || !/^[A-Za-z0-9_.:-]{1,64}$/.test(recordId)) {
      return { ok: false, error: `"${pair}" is not <clubId>:<recordId>` };
    }
    records.push({ clubId, recordId });
  }
  return { ok: true, args: { selection: { kind, records }, group, fresh, force } };
}

export const BACKFILL_EXIT = { done: 0, failed: 1, usage: 2, refused: 3 } as const;
