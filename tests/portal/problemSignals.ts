import type { ProblemSignals } from '../../shared/portal/openProblems';

/** The moment the problem tests read their signals at. */
export const now = new Date('2026-11-26T20:00:00Z');

/** Signals of a quiet evening: no problem open. Tests spread it and change what they raise. */
export const calm: ProblemSignals = {
  now,
  ingest: {
    status: 'up',
    admissionState: 'none',
    catchUpState: 'live',
    sourceDriftState: 'none',
    totalLag: 0,
    maxTopicLag: 0,
    quarantineSince: null,
    lastContractRejectAt: null,
  },
  clubsByNumber: new Map(),
  deadLetters: { pending: 0, byClubNumber: new Map() },
  staleClubs: [],
  pushClubs: [],
  delivery: [],
};
