import type { FreshnessStatus } from '../freshness/evaluation';
import type { HintCode } from '../freshness/hints';
import type { PushState } from './boxPushState';
import { isFailing } from './boxPushState';

/**
 * One story per club: every status word an operator reads about a club (freshness, box pushes,
 * consent, quarantine, dead letters) and the most likely cause among them, derived once, so the
 * club page, the diagnostics table and the overview's problem list never disagree. Pure, so every
 * cause has a table test (tests/portal/clubStory.unit.test.ts).
 */
export const CLUB_CAUSES = [
  'quarantined',
  'consent_revoked',
  'consent_missing',
  'box_offline',
  'pushes_refused',
  'clock_fault',
  'dead_letters',
  'transport_stalled',
  'shot_path_broken',
  'nothing_shot',
] as const;
export type ClubCause = (typeof CLUB_CAUSES)[number];

export const CONSENT_STATES = ['GRANTED', 'NONE', 'REVOKED', 'unknown'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** Freshness as the story reads it: the check's status, or `not_checked` for a club the check passes by. */
export type StoryFreshness = FreshnessStatus | 'not_checked';

export interface ClubSignals {
  freshness: StoryFreshness;
  /** The freshness check's rule-6 hint (stale or unknown clubs only). */
  hint: HintCode | null;
  /** Push states per channel; null when they are not known to the caller. */
  pushes: { clubMaster: PushState; starterlists: PushState } | null;
  consent: ConsentState;
  /** The open quarantine names the club (its number or one of its topics). */
  quarantined: boolean;
  /** Dead letters of the club's topics waiting for a replay. */
  deadLetters: number;
}

export interface ClubStory extends ClubSignals {
  /** Something about the club needs an operator. */
  troubled: boolean;
  /** The most likely cause among the signals; null when nothing is wrong. */
  cause: ClubCause | null;
  tone: 'danger' | 'warning' | 'ok';
}

/**
 * The cause, in order of evidence: a quarantine holds the club's events whatever the box does;
 * a missing consent makes ingest refuse its score rows; a box that stopped calling explains any
 * silence; refused pushes explain missing lists and master data; a clock fault makes arrivals
 * unusable; dead letters lose applied events; only then the freshness check's own reading.
 */
function causeOf(signals: ClubSignals): ClubCause | null {
  const pushes = signals.pushes;
  const failing = pushes ? [pushes.clubMaster, pushes.starterlists].filter(isFailing) : [];
  const dataMissing = signals.freshness === 'stale' || signals.freshness === 'unknown';
  if (signals.quarantined) return 'quarantined';
  if (dataMissing && signals.consent === 'REVOKED') return 'consent_revoked';
  if (dataMissing && signals.consent === 'NONE') return 'consent_missing';
  if (signals.hint === 'box_offline' || failing.includes('stopped')) return 'box_offline';
  if (failing.includes('refused')) return 'pushes_refused';
  if (signals.freshness === 'error') return 'clock_fault';
  if (signals.deadLetters > 0) return 'dead_letters';
  if (dataMissing) return signals.hint ?? 'nothing_shot';
  return null;
}

export function clubStory(signals: ClubSignals): ClubStory {
  const cause = causeOf(signals);
  const tone = cause === null ? 'ok' : cause === 'quarantined' || signals.freshness === 'stale' ? 'danger' : 'warning';
  return { ...signals, troubled: cause !== null, cause, tone };
}

/** Whether the open quarantine names a club: its number as the quarantine's club, or a topic of its own. */
export function quarantineNames(quarantine: { clubId?: string | null; topic?: string | null } | null, vereinsId: string | null): boolean {
  if (!quarantine || vereinsId === null) return false;
  return quarantine.clubId === vereinsId || (quarantine.topic ?? '').startsWith(`club.${vereinsId}.`);
}
