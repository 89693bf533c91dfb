/**
 * Whether a box's pushes arrive, per channel (club master sync, starter lists). The cloud sees
 * only the pushes it accepted (club_master_report, edge_box_signal) and when the box's edge token
 * was last used: every call of the box, accepted or refused, uses it. So a box that calls but
 * whose pushes of one channel have not been accepted for a while is having them refused (or
 * failing), and a box that does not call at all has stopped. Pure, so each state has a table test.
 */
export const PUSH_STATES = ['ok', 'never', 'refused', 'stopped'] as const;
export type PushState = (typeof PUSH_STATES)[number];

export interface PushSignals {
  /** The newest push of this channel the cloud accepted; null when it never accepted one. */
  lastAcceptedAt: Date | null;
  /** The newest use of any of the club's edge tokens. */
  tokenLastUsedAt: Date | null;
}

const HOUR_MS = 3_600_000;

/**
 * - never: no push of this channel was ever accepted (the channel is off on the box, or new);
 * - ok: one was accepted within `staleAfterHours`;
 * - refused: none within that time, although the box called the cloud within it;
 * - stopped: neither a push nor any call within that time (box off, offline, or its token revoked).
 */
export function pushState(signals: PushSignals, now: Date, staleAfterHours: number): PushState {
  if (!signals.lastAcceptedAt) return 'never';
  const cutoff = now.getTime() - staleAfterHours * HOUR_MS;
  if (signals.lastAcceptedAt.getTime() >= cutoff) return 'ok';
  if (signals.tokenLastUsedAt && signals.tokenLastUsedAt.getTime() >= cutoff) return 'refused';
  return 'stopped';
}

export function isFailing(state: PushState): boolean {
  return state === 'refused' || state === 'stopped';
}
