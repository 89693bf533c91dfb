import type { Queryable } from '../db/client';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language';
import { pickText, type LocalizedText } from '../i18n/localizedText';
import { MICRO_FORMAT } from '../paging/microTimestamp';
import { challengeListCursor } from './cursors';
import type { ChallengeListItem, ChallengeView, RewardBadge, ParticipationStatus, ParticipationView, Scope, Visibility } from './model';
import type { Difficulty } from './personalizeMaths';
import type { Rules } from './rules';
import type { Tier } from './tiers';

export interface NewChallenge {
  scope: Scope;
  clubId: string | null;
  personalizedForUserId: string | null;
  /** Shown when the reader's language has no text of its own in `titles` (docs/challenges.md, "Texts in two languages"). */
  title: string;
  description: string | null;
  /** The title and description per language; either may be missing. */
  titles?: LocalizedText;
  descriptions?: LocalizedText;
  difficulty: Difficulty;
  durationDays: number;
  endsAt: Date | null;
  lowerLevel: Tier | null;
  upperLevel: Tier | null;
  defaultVisibility: Visibility;
  rewardXp: number;
  priceCents: number | null;
  rules: Rules;
  createdBy: string | null;
}

/** A stored challenge: the new one's fields plus what the database assigns. */
interface ChallengeRow extends Omit<NewChallenge, 'createdBy'> {
  id: string;
  createdAt: Date;
}

/** A template as a reader of `language` sees it: its title and description in that language where it has them. */
export function challengeView(row: ChallengeRow, language: Language = DEFAULT_LANGUAGE): ChallengeView {
  return {
    id: row.id,
    scope: row.scope,
    clubId: row.clubId,
    personalizedForUserId: row.personalizedForUserId,
    title: pickText(row.titles, language, row.title),
    description: pickText(row.descriptions, language, row.description),
    difficulty: row.difficulty,
    durationDays: row.durationDays,
    endsAt: row.endsAt?.toISOString() ?? null,
    lowerLevel: row.lowerLevel,
    upperLevel: row.upperLevel,
    defaultVisibility: row.defaultVisibility,
    rewardXp: row.rewardXp,
    priceCents: row.priceCents,
    rulesJson: row.rules,
    createdAt: row.createdAt.toISOString(),
  };
}

export const CHALLENGE_COLUMNS = `c.id, c.scope, c.club_id as "clubId", c.personalized_for_user_id as "personalizedForUserId", c.title,
  c.description, c.titles, c.descriptions, c.difficulty, c.duration_days as "durationDays", c.ends_at as "endsAt", c.lower_level as "lowerLevel",
  c.upper_level as "upperLevel", c.default_visibility as "defaultVisibility", c.reward_xp as "rewardXp",
  c.price_cents as "priceCents", c.rules, c.created_at as "createdAt"`;

/** Inserts a template, or with `key` updates the one seeded or generated under that key. */
export async function upsertChallenge(
  sql: Queryable,
  challenge: NewChallenge,
  key: { presetKey?: string; personalizationKey?: string } = {},
  language: Language = DEFAULT_LANGUAGE,
): Promise<ChallengeView> {
  const values = {
    preset_key: key.presetKey ?? null,
    personalization_key: key.personalizationKey ?? null,
    scope: challenge.scope,
    club_id: challenge.clubId,
    personalized_for_user_id: challenge.personalizedForUserId,
    title: challenge.title,
    description: challenge.description,
    titles: sql.json(challenge.titles ?? {}),
    descriptions: sql.json(challenge.descriptions ?? {}),
    difficulty: challenge.difficulty,
    duration_days: challenge.durationDays,
    ends_at: challenge.endsAt,
    lower_level: challenge.lowerLevel,
    upper_level: challenge.upperLevel,
    default_visibility: challenge.defaultVisibility,
    reward_xp: challenge.rewardXp,
    price_cents: challenge.priceCents,
    rules: sql.json(challenge.rules),
    created_by: challenge.createdBy,
  };
  const conflictColumn = key.presetKey ? 'preset_key' : key.personalizationKey ? 'personalization_key' : null;
  const updatable = Object.keys(values).filter((column) => !['preset_key', 'personalization_key', 'created_by'].includes(column));
  const conflict = conflictColumn
    ? sql`on conflict (${sql(conflictColumn)}) do update set ${sql.unsafe(updatable.map((column) => `${column} = excluded.${column}`).join(', '))}, updated_at = now()`
    : sql``;
  const [row]: [ChallengeRow?] = await sql`
    with c as (insert into challenge ${sql(values)} ${conflict} returning *)
    select ${sql.unsafe(CHALLENGE_COLUMNS)} from c`;
  // An insert, or an upsert's update, always returns its row.
  if (!row) throw new Error('challenge upsert returned no row');
  return challengeView(row, language);
}

export async function findChallenge(sql: Queryable, id: string, language: Language = DEFAULT_LANGUAGE): Promise<ChallengeView | undefined> {
  const [row]: [ChallengeRow?] = await sql`select ${sql.unsafe(CHALLENGE_COLUMNS)} from challenge c where c.id = ${id}`;
  return row ? challengeView(row, language) : undefined;
}

/** Whether the user may see (and join) the template: global, their clubs', or personal for them or for anyone. */
export async function findVisibleChallenge(
  sql: Queryable,
  id: string,
  userId: string,
  language: Language = DEFAULT_LANGUAGE,
): Promise<ChallengeView | undefined> {
  const [row]: [ChallengeRow?] = await sql`
    select ${sql.unsafe(CHALLENGE_COLUMNS)} from challenge c
    where c.id = ${id} and ${visibleTo(sql, userId)}`;
  return row ? challengeView(row, language) : undefined;
}

function visibleTo(sql: Queryable, userId: string) {
  return sql`(c.scope = 'global'
    or (c.scope = 'club' and c.club_id in (select club_id from club_membership where user_id = ${userId}))
    or (c.scope = 'personal' and (c.personalized_for_user_id is null or c.personalized_for_user_id = ${userId})))`;
}

export interface ListFilter {
  scope?: Scope;
  /** The caller's participation status, or `available` for templates they have not joined. */
  status?: ParticipationStatus | 'available';
  difficulty?: Difficulty;
  search?: string;
  /** The reader's language for titles and descriptions (German when not given). */
  language?: Language;
  limit: number;
  after?: { createdAt: string; id: string };
}

interface ListRow extends ChallengeRow {
  cursorAt: string;
  participation: ParticipationRowJson | null;
  teamProgress: { aggregate: 'sum' | 'average' | 'best'; value: number | string | null; participants: number; completed: number } | null;
  rewardBadge: (Omit<RewardBadge, 'name'> & { name: string; names: LocalizedText }) | null;
}

export interface ParticipationRowJson {
  id: string;
  challengeId: string;
  userId: string;
  clubId: string | null;
  status: ParticipationStatus;
  joinedAt: string;
  deadlineAt: string;
  finishedAt: string | null;
  progress: ParticipationView['progress'];
  result: ParticipationView['result'];
  shareWithinClub: boolean;
  shareGlobally: boolean;
}

/** Whether a text of the template in either language matches the search. */
const searchTexts = (sql: Queryable, search: string) =>
  sql`(c.titles->>'de' ilike ${search} or c.titles->>'en' ilike ${search}
    or c.descriptions->>'de' ilike ${search} or c.descriptions->>'en' ilike ${search})`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`);

/** JSON of a participation row `p`, timestamps as ISO text with milliseconds. */
export const PARTICIPATION_JSON = `json_build_object(
  'id', p.id, 'challengeId', p.challenge_id, 'userId', p.user_id, 'clubId', p.club_id, 'status', p.status,
  'joinedAt', to_char(p.joined_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'deadlineAt', to_char(p.deadline_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'finishedAt', to_char(p.finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'progress', p.progress, 'result', p.result, 'shareWithinClub', p.share_within_club, 'shareGlobally', p.share_globally)`;

/**
 * The caller's page of templates, newest first: global ones, their clubs' and the personal ones
 * meant for them, each with the caller's participation and, for club templates, the team
 * progress over the participants who share within the club plus the caller.
 */
export async function listChallenges(
  sql: Queryable,
  userId: string,
  filter: ListFilter,
): Promise<{ items: ChallengeListItem[]; nextCursor: string | null }> {
  const statusFilter =
    filter.status === undefined ? sql`` : filter.status === 'available' ? sql`and p.id is null` : sql`and p.status = ${filter.status}`;
  const search = filter.search ? `%${escapeLike(filter.search)}%` : null;
  const rows = await sql<ListRow[]>`
    select ${sql.unsafe(CHALLENGE_COLUMNS)},
      to_char(c.created_at at time zone 'UTC', ${MICRO_FORMAT}) as "cursorAt",
      case when p.id is null then null else ${sql.unsafe(PARTICIPATION_JSON)} end as participation,
      case when c.scope = 'club' then (
        select json_build_object(
          'aggregate', case c.rules->'goal'->>'metric' when 'averageRing' then 'average' when 'bestSeries' then 'best' else 'sum' end,
          'value', case c.rules->'goal'->>'metric' when 'averageRing' then round(avg(t.score), 2) when 'bestSeries' then max(t.score) else sum(t.score) end,
          'participants', count(*),
          'completed', count(*) filter (where t.status = 'completed'))
        from challenge_participation t
        where t.challenge_id = c.id and t.status <> 'cancelled'
          and (t.user_id = ${userId} or t.share_within_club or t.share_globally)
      ) end as "teamProgress",
      case when b.key is null then null else json_build_object(
        'key', b.key, 'name', b.name, 'names', b.names, 'icon', b.icon, 'colour', b.colour, 'quality', b.quality) end as "rewardBadge"
    from challenge c
    left join challenge_participation p on p.challenge_id = c.id and p.user_id = ${userId}
    left join challenge_badge b on b.key = c.rules->>'rewardBadge'
    where ${visibleTo(sql, userId)}
      ${filter.scope ? sql`and c.scope = ${filter.scope}` : sql``}
      ${filter.difficulty ? sql`and c.difficulty = ${filter.difficulty}` : sql``}
      ${statusFilter}
      ${search ? sql`and (c.title ilike ${search} or c.description ilike ${search} or ${searchTexts(sql, search)})` : sql``}
      ${filter.after ? sql`and (c.created_at, c.id) < (${filter.after.createdAt}::text::timestamptz, ${filter.after.id})` : sql``}
    order by c.created_at desc, c.id desc
    limit ${filter.limit + 1}`;
  const page = rows.slice(0, filter.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      ...challengeView(row, filter.language),
      participation: row.participation,
      teamProgress: row.teamProgress
        ? { ...row.teamProgress, value: row.teamProgress.value === null ? 0 : Number(row.teamProgress.value) }
        : null,
      rewardBadge: row.rewardBadge && rewardBadgeView(row.rewardBadge, filter.language),
    })),
    nextCursor: rows.length > filter.limit && last ? challengeListCursor.encode([last.cursorAt, last.id]) : null,
  };
}

/** A reward badge with its name in the reader's language (German when not given). */
function rewardBadgeView(badge: NonNullable<ListRow['rewardBadge']>, language: Language = DEFAULT_LANGUAGE): RewardBadge {
  return {
    key: badge.key,
    name: pickText(badge.names, language, badge.name),
    icon: badge.icon,
    colour: badge.colour,
    quality: badge.quality,
  };
}
