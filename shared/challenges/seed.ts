import * as v from 'valibot';
import { findClubId } from '../clubMaster/clubRepository';
import type { Sql } from '../db/client';
import { NotFoundError } from '../errors/domainErrors';
import { upsertChallenge } from './challengeRepository';
import { upsertBadge } from './badgeRepository';
import { PRESETS, quarterEnd } from './presets';
import { RulesSchema } from './rules';

export interface SeedTargets {
  /** Service club id for the club presets; without it they are skipped. */
  clubId?: string;
  /** User the personal presets are bound to; without it they are personal templates for everyone. */
  personalUserId?: string;
}

export interface SeedOutcome {
  templates: number;
  badges: number;
  skipped: string[];
}

/**
 * Upserts the badge registry and the 15 presets in one transaction. Templates are matched by
 * their preset key (with the club or user they were seeded for), so a re-run updates them in
 * place: ids stay, participations stay (they carry their own copy of the rules).
 */
export async function seedChallenges(sql: Sql, targets: SeedTargets, now: Date = new Date()): Promise<SeedOutcome> {
  return sql.begin(async (tx) => {
    if (targets.clubId) {
      if (!(await findClubId(tx, targets.clubId)))
        throw new NotFoundError(`SEED_CLUB_ID names no club: ${targets.clubId}`, { code: 'club_not_found' });
    }
    const outcome: SeedOutcome = { templates: 0, badges: 0, skipped: [] };
    for (const preset of PRESETS) {
      await upsertBadge(tx, preset.badge);
      outcome.badges += 1;
      if (preset.scope === 'club' && !targets.clubId) {
        outcome.skipped.push(preset.key);
        continue;
      }
      const owner = preset.scope === 'club' ? targets.clubId : preset.scope === 'personal' ? (targets.personalUserId ?? '*') : undefined;
      await upsertChallenge(
        tx,
        {
          scope: preset.scope,
          clubId: preset.scope === 'club' ? (targets.clubId ?? null) : null,
          personalizedForUserId: preset.scope === 'personal' ? (targets.personalUserId ?? null) : null,
          title: preset.title.de,
          description: preset.description.de,
          titles: preset.title,
          descriptions: preset.description,
          difficulty: preset.difficulty,
          durationDays: preset.durationDays,
          endsAt: preset.endsAtQuarterEnd ? quarterEnd(now) : null,
          lowerLevel: null,
          upperLevel: null,
          defaultVisibility: preset.defaultVisibility,
          rewardXp: preset.rewardXp,
          priceCents: null,
          rules: v.parse(RulesSchema, preset.rules),
          createdBy: 'seed',
        },
        { presetKey: owner ? `${preset.key}@${owner}` : preset.key },
      );
      outcome.templates += 1;
    }
    return outcome;
  });
}
