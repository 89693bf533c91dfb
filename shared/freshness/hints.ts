import type { Evening, FreshnessStatus } from './evaluation';

/**
 * Rule 6 of the incident rules as data: what the diagnostics say about a club whose data is
 * missing. Pure, so each code has a table test.
 */
export const HINT_CODES = ['box_offline', 'transport_stalled', 'shot_path_broken', 'nothing_shot'] as const;
export type HintCode = (typeof HINT_CODES)[number];

export interface Hint {
  code: HintCode;
  message: string;
}

const MESSAGES: Record<HintCode, string> = {
  box_offline: 'The box has not contacted the cloud since the evening ended (old edgeTokenLastUsedAt): the box is off or offline.',
  transport_stalled:
    "The box's own check found hits after the evening, but none reached the cloud (box green, cloud red): the transport stands still.",
  shot_path_broken:
    'Starter lists arrived after the evening started but no hits did: the box lives and the shot-data path (event hub) is broken.',
  nothing_shot: 'The box is online but shows no activity for the evening: nothing was shot or the club software did not run.',
};

export function hintFor(code: HintCode): Hint {
  return { code, message: MESSAGES[code] };
}

/** What the box told the cloud about its own check of the mirror database (item 8). */
export interface BoxCheck {
  checkedAt: Date;
  hitsAfterEvening: boolean;
}

export interface HintInput {
  status: FreshnessStatus;
  evening: Evening;
  edgeTokenLastUsedAt: Date | null;
  lastStarterlistSeenAt: Date | null;
  boxCheck: BoxCheck | null;
}

/**
 * The interpretation for a club without data for the evening (stale, or unknown: never
 * delivered); null for a fresh club or an unusable signal (error). In order of evidence:
 * 1. the box did not call the cloud since the evening ended (with the push intervals well
 *    inside the 6-hour grace, a live box has) → box_offline;
 * 2. the box checked its mirror after the evening: hits there → transport_stalled, none → nothing_shot;
 * 3. starter lists seen since the evening started → shot_path_broken;
 * 4. otherwise → nothing_shot.
 */
export function freshnessHint(input: HintInput): Hint | null {
  if (input.status !== 'stale' && input.status !== 'unknown') return null;
  const { evening } = input;
  if (!input.edgeTokenLastUsedAt || input.edgeTokenLastUsedAt.getTime() < evening.end.getTime()) return hintFor('box_offline');
  if (input.boxCheck && input.boxCheck.checkedAt.getTime() >= evening.end.getTime()) {
    return hintFor(input.boxCheck.hitsAfterEvening ? 'transport_stalled' : 'nothing_shot');
  }
  if (input.lastStarterlistSeenAt && input.lastStarterlistSeenAt.getTime() >= evening.start.getTime()) return hintFor('shot_path_broken');
  return hintFor('nothing_shot');
}
