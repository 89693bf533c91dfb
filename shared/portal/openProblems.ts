import type { ClubCause, ClubStory } from './clubStory';

/**
 * Worst first: the signals of the diagnostics summary turned into one list of open problems,
 * ranked by severity, each naming the club or part affected, the facts of its one-line cause,
 * the runbook section with the step and the page that shows it. Pure (the caller reads the
 * signals), so the order is table-tested in tests/portal/openProblems.unit.test.ts.
 */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** In rank order within a severity. */
export const PROBLEM_KINDS = [
  'ingest_quarantined',
  'ingest_down',
  'ingest_rejecting',
  'ingest_stalled',
  'dead_letters',
  'club_stale',
  'clubs_stale_more',
  'partitions_behind',
  'ingest_drift',
  'box_pushes_failing',
  'box_pushes_more',
  'delivery_failed',
  // Raised by the portal from the cost answer it reads anyway (portal/src/costProblem.ts), so the
  // summary never waits on the cost provider; ranked here so both agree on its place.
  'costs_over_budget',
  'delivery_skipped',
] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

type Fact = string | number | null;
export interface ClubRef {
  clubId: string;
  name: string;
  vereinsId: string | null;
}

export interface Problem {
  kind: ProblemKind;
  severity: Severity;
  club: ClubRef | null;
  part: string | null;
  cause: ClubCause | null;
  facts: Record<string, Fact>;
  runbook: string | null;
  link: string;
  since: string | null;
}

export interface IngestSignals {
  status: string;
  admissionState: string | null;
  catchUpState: string | null;
  sourceDriftState: string | null;
  totalLag: number | null;
  maxTopicLag: number | null;
  statusReason?: string | null;
  lastErrorMessage?: string | null;
  lagErrorMessage?: string | null;
  sourceDriftDetail?: string | null;
  quarantineSince: string | null;
  quarantineTopic?: string | null;
  quarantineClubId?: string | null;
  quarantineEntity?: string | null;
  quarantineReason?: string | null;
  quarantineDetail?: string | null;
  lastContractRejectAt: string | null;
  lastContractRejectReason?: string | null;
  lastContractRejectTopic?: string | null;
  lastContractRejectClubId?: string | null;
}

export interface StaleClub extends ClubRef {
  status: string;
  /** The end of the evening whose data is missing. */
  eveningEnd: string;
  since: string | null;
  story: ClubStory;
}

export interface PushClub extends ClubRef {
  story: ClubStory;
  /** The older of the channels' last accepted pushes. */
  failingSince: string | null;
}

export interface ProblemSignals {
  now: Date;
  ingest: IngestSignals;
  /** The service clubs behind club numbers (the ingest records name clubs by number). */
  clubsByNumber: ReadonlyMap<string, ClubRef>;
  deadLetters: { pending: number; byClubNumber: ReadonlyMap<string, number> };
  /** Clubs whose freshness reading is stale or error. */
  staleClubs: StaleClub[];
  /** Clubs with a failing push channel. */
  pushClubs: PushClub[];
  delivery: { channel: string; outcome: string; reason: string | null; count: number }[];
}

const HOUR_MS = 3_600_000;
/** A club two days without its evening's data is more than a late upload. */
const STALE_HIGH_AFTER_HOURS = 48;
/**
 * Clubs named one by one per kind; the rest are one problem with their count, linking to the
 * diagnostics page's lists, so a night with many silent clubs still reads in one screen.
 */
export const CLUBS_NAMED = 5;
/** Skips a member chose (switched the channel off) are counted, not raised as problems. */
const CHOSEN_SKIPS = new Set(['email_disabled', 'push_disabled']);

const CLUB_RUNBOOK: Partial<Record<ClubCause, string>> = {
  quarantined: 'Quarantined',
  consent_revoked: 'Consent refused',
  consent_missing: 'Consent refused',
  dead_letters: 'Dead letters',
};

function problem(kind: ProblemKind, severity: Severity, rest: Partial<Problem> & { link: string }): Problem {
  return { kind, severity, club: null, part: null, cause: null, facts: {}, runbook: null, since: null, ...rest };
}

function clubLink(club: ClubRef | null): string {
  return club ? `#/clubs/${encodeURIComponent(club.clubId)}` : '#/diagnostics';
}

function ingestProblems(signals: ProblemSignals): Problem[] {
  const ingest = signals.ingest;
  const named = (number: string | null | undefined) => (number ? (signals.clubsByNumber.get(number) ?? null) : null);
  const found: Problem[] = [];
  if (ingest.admissionState === 'quarantined') {
    const club = named(ingest.quarantineClubId);
    found.push(
      problem('ingest_quarantined', 'critical', {
        club,
        part: ingest.quarantineTopic ?? null,
        facts: {
          clubNumber: ingest.quarantineClubId ?? null,
          reason: ingest.quarantineReason ?? null,
          detail: ingest.quarantineDetail ?? null,
          entity: ingest.quarantineEntity ?? null,
        },
        runbook: 'Quarantined',
        link: clubLink(club),
        since: ingest.quarantineSince,
      }),
    );
  }
  if (ingest.status === 'down') {
    found.push(
      problem('ingest_down', 'critical', {
        facts: { reason: ingest.statusReason ?? null, detail: ingest.lastErrorMessage ?? null },
        runbook: 'Rollback',
        link: '#/diagnostics',
      }),
    );
  }
  if (ingest.admissionState === 'rejecting') {
    const club = named(ingest.lastContractRejectClubId);
    found.push(
      problem('ingest_rejecting', 'high', {
        club,
        part: ingest.lastContractRejectTopic ?? null,
        facts: { clubNumber: ingest.lastContractRejectClubId ?? null, reason: ingest.lastContractRejectReason ?? null },
        runbook: 'Rejecting',
        link: clubLink(club),
        since: ingest.lastContractRejectAt,
      }),
    );
  }
  const lag = { totalLag: ingest.totalLag, maxTopicLag: ingest.maxTopicLag };
  if (ingest.catchUpState === 'stalled') {
    found.push(
      problem('ingest_stalled', 'high', {
        facts: { ...lag, detail: ingest.lagErrorMessage ?? null },
        runbook: 'Stalled',
        link: '#/diagnostics',
      }),
    );
  } else if (ingest.catchUpState === 'catching_up') {
    found.push(problem('partitions_behind', 'medium', { facts: lag, runbook: 'Stalled', link: '#/diagnostics' }));
  }
  if (ingest.sourceDriftState === 'suspected') {
    found.push(
      problem('ingest_drift', 'medium', {
        facts: { detail: ingest.sourceDriftDetail ?? null },
        runbook: 'Drift suspected',
        link: '#/diagnostics',
      }),
    );
  }
  return found;
}

function deadLetterProblem(signals: ProblemSignals): Problem[] {
  const { pending, byClubNumber } = signals.deadLetters;
  if (pending === 0) return [];
  // The club with most of them is named when it is a service club; the rest are on the diagnostics page.
  const [number] = [...byClubNumber.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? [];
  const club = number ? (signals.clubsByNumber.get(number) ?? null) : null;
  return [
    problem('dead_letters', 'high', {
      club,
      facts: { pending, clubs: byClubNumber.size },
      runbook: 'Dead letters',
      link: club ? clubLink(club) : '#/diagnostics',
    }),
  ];
}

function hoursLate(club: StaleClub, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(club.eveningEnd).getTime()) / HOUR_MS));
}

function clubProblems(signals: ProblemSignals, quarantined: ClubRef | null): Problem[] {
  const stale = [...signals.staleClubs]
    // The quarantine names its club already, with how late its data is: one story, told once.
    .filter((club) => club.clubId !== quarantined?.clubId)
    .map((club) => ({ club, late: hoursLate(club, signals.now) }))
    .sort((a, b) => b.late - a.late || a.club.name.localeCompare(b.club.name));
  const named = new Set(stale.map(({ club }) => club.clubId));
  const ref = ({ clubId, name, vereinsId }: ClubRef): ClubRef => ({ clubId, name, vereinsId });
  const staleProblems = stale.map(({ club, late }) =>
    problem('club_stale', late >= STALE_HIGH_AFTER_HOURS ? 'high' : 'medium', {
      club: ref(club),
      cause: club.story.cause,
      facts: { status: club.status, hoursLate: late },
      runbook: club.story.cause ? (CLUB_RUNBOOK[club.story.cause] ?? null) : null,
      link: clubLink(club),
      since: club.since,
    }),
  );
  // A stale club's failing pushes are its cause above: one story per club, named once.
  const pushProblems = signals.pushClubs
    .filter((club) => !named.has(club.clubId))
    .map((club) =>
      problem('box_pushes_failing', 'medium', {
        club: ref(club),
        cause: club.story.cause,
        facts: { clubMaster: club.story.pushes?.clubMaster ?? null, starterlists: club.story.pushes?.starterlists ?? null },
        link: clubLink(club),
        since: club.failingSince,
      }),
    );
  return [...namedFirst(staleProblems, 'clubs_stale_more'), ...namedFirst(pushProblems, 'box_pushes_more')];
}

/** The first CLUBS_NAMED problems one by one, the rest as one with their count, at the severity of the worst of them. */
function namedFirst(problems: Problem[], more: ProblemKind): Problem[] {
  if (problems.length <= CLUBS_NAMED) return problems;
  const rest = problems.slice(CLUBS_NAMED);
  const severity = rest.map((p) => p.severity).sort((a, b) => SEVERITIES.indexOf(a) - SEVERITIES.indexOf(b))[0] ?? 'medium';
  return [...problems.slice(0, CLUBS_NAMED), problem(more, severity, { facts: { count: rest.length }, link: '#/diagnostics' })];
}

function deliveryProblems(signals: ProblemSignals): Problem[] {
  return signals.delivery
    .filter((row) => row.outcome === 'failed' || (row.outcome === 'skipped' && !CHOSEN_SKIPS.has(row.reason ?? '')))
    .sort((a, b) => b.count - a.count || a.channel.localeCompare(b.channel))
    .map((row) =>
      problem(row.outcome === 'failed' ? 'delivery_failed' : 'delivery_skipped', row.outcome === 'failed' ? 'medium' : 'low', {
        part: row.channel,
        facts: { channel: row.channel, reason: row.reason ?? 'unknown', count: row.count },
        link: '#/diagnostics',
      }),
    );
}

const rank = (p: Problem) => SEVERITIES.indexOf(p.severity) * PROBLEM_KINDS.length + PROBLEM_KINDS.indexOf(p.kind);

/** Every open problem, most severe first; within a severity by kind, within a kind as each part orders it (stable sort). */
export function openProblems(signals: ProblemSignals): Problem[] {
  const ingest = ingestProblems(signals);
  const quarantine = ingest.find((found) => found.kind === 'ingest_quarantined');
  const quarantinedClub = quarantine?.club ? signals.staleClubs.find((club) => club.clubId === quarantine.club?.clubId) : undefined;
  if (quarantine && quarantinedClub) quarantine.facts.hoursLate = hoursLate(quarantinedClub, signals.now);
  return [...ingest, ...deadLetterProblem(signals), ...clubProblems(signals, quarantine?.club ?? null), ...deliveryProblems(signals)].sort(
    (a, b) => rank(a) - rank(b),
  );
}
