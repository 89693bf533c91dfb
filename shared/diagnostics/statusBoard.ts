import type { DataFreshnessBlock } from '../freshness/diagnosticsSchema';
import type { DeadLetterBlock } from '../ingest/deadLetterSchema';
import type { IngestHealth } from '../ingest/health';
import type { DeliveryQueueBlock } from '../notifications/outbox/deliveryQueueSchema';
import type { BoxPushBlock } from '../portal/boxPushSchema';
import { clubStory, quarantineNames, type ClubStory } from '../portal/clubStory';
import type { NamedClubs } from '../portal/namedClubsSchema';
import { openProblems, type ClubRef, type Problem } from '../portal/openProblems';

export interface SummaryBlocks {
  ingest: IngestHealth;
  dataFreshness: DataFreshnessBlock;
  deadLetters: DeadLetterBlock;
  delivery: DeliveryQueueBlock;
  boxPushes: BoxPushBlock;
  namedClubs: NamedClubs;
}

export interface StatusBoard {
  problems: Problem[];
  clubStories: { clubId: string; story: ClubStory }[];
}

/** Dead letters not replayed yet per club number, from the newest the summary lists. */
function pendingDeadLetters(block: DeadLetterBlock): Map<string, number> {
  const counts = new Map<string, number>();
  for (const letter of block.recent) {
    if (letter.replayedAt === null && letter.clubId) counts.set(letter.clubId, (counts.get(letter.clubId) ?? 0) + 1);
  }
  return counts;
}

/**
 * The diagnostics summary's blocks as a status board: one story per club named in them (the
 * freshness page and the clubs with failing pushes) and the open problems, worst first. Pure.
 */
export function statusBoard(blocks: SummaryBlocks, now: Date): StatusBoard {
  const { ingest } = blocks;
  const quarantine =
    ingest.admissionState === 'quarantined' ? { clubId: ingest.quarantineClubId ?? null, topic: ingest.quarantineTopic ?? null } : null;
  const deadByNumber = pendingDeadLetters(blocks.deadLetters);
  const pushesById = new Map(blocks.boxPushes.clubs.map((club) => [club.clubId, club]));
  const stories = new Map<string, ClubStory>();
  const storyOf = (clubId: string, vereinsId: string | null, freshness: DataFreshnessBlock['clubs'][number] | undefined) => {
    const known = stories.get(clubId);
    if (known) return known;
    const pushes = pushesById.get(clubId);
    const story = clubStory({
      freshness: freshness?.status ?? 'not_checked',
      hint: freshness?.hint?.code ?? null,
      pushes: pushes ? { clubMaster: pushes.clubMaster, starterlists: pushes.starterlists } : null,
      consent: freshness?.consent.state ?? 'unknown',
      quarantined: quarantineNames(quarantine, vereinsId),
      deadLetters: vereinsId === null ? 0 : (deadByNumber.get(vereinsId) ?? 0),
    });
    stories.set(clubId, story);
    return story;
  };
  const freshnessById = new Map(blocks.dataFreshness.clubs.map((club) => [club.clubId, club]));
  const staleClubs = blocks.dataFreshness.clubs
    .filter((club) => club.status === 'stale' || club.status === 'error')
    .map((club) => ({
      clubId: club.clubId,
      name: club.name,
      vereinsId: club.vereinsId,
      status: club.status,
      eveningEnd: club.evening.end,
      since: club.since,
      story: storyOf(club.clubId, club.vereinsId, club),
    }));
  for (const club of blocks.dataFreshness.clubs) storyOf(club.clubId, club.vereinsId, club);
  const pushClubs = blocks.boxPushes.clubs.map((club) => ({
    clubId: club.clubId,
    name: club.name,
    vereinsId: club.vereinsId,
    failingSince: [club.clubMasterReportedAt, club.starterlistPushAt].filter((at) => at !== null).sort()[0] ?? null,
    story: storyOf(club.clubId, club.vereinsId, freshnessById.get(club.clubId)),
  }));
  const clubsByNumber = new Map<string, ClubRef>(blocks.namedClubs.map((club) => [club.vereinsId, club]));
  const problems = openProblems({
    now,
    ingest,
    clubsByNumber,
    deadLetters: { pending: blocks.deadLetters.pending, byClubNumber: deadByNumber },
    staleClubs,
    pushClubs,
    delivery: blocks.delivery.outcomes,
  });
  return { problems, clubStories: [...stories].map(([clubId, story]) => ({ clubId, story })) };
}
