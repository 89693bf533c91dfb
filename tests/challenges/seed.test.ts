import { joinChallenge } from '../../shared/challenges/participationRepository';
import { PRESETS } from '../../shared/challenges/presets';
import { seedChallenges } from '../../shared/challenges/seed';
import { getSql } from '../../shared/db/client';
import { createClub, unique } from './support';

describe('seed:challenges', () => {
  it('upserts 15 templates with badges; a second run updates them and keeps participations', async () => {
    const club = await createClub();
    const personalUser = unique('seeded');
    const now = new Date('2026-11-22T12:00:00Z');
    const keys = PRESETS.map(
      (preset) => preset.key + (preset.scope === 'club' ? `@${club.clubId}` : preset.scope === 'personal' ? `@${personalUser}` : ''),
    );
    const ours = () => getSql()<
      {
        id: string;
        presetKey: string;
        scope: string;
        rewardXp: number;
        title: string;
        titles: Record<string, string>;
        endsAt: Date | null;
        badge: string;
      }[]
    >`
      select id, preset_key as "presetKey", scope, reward_xp as "rewardXp", title, titles, ends_at as "endsAt", rules->>'rewardBadge' as badge
      from challenge where preset_key = any(${keys}::text[])
      order by preset_key`;

    expect(await seedChallenges(getSql(), { clubId: club.clubId, personalUserId: personalUser }, now)).toEqual({
      templates: 15,
      badges: 15,
      skipped: [],
    });
    const first = await ours();
    expect(first).toHaveLength(15);
    const byScope = (scope: string) => first.filter((row) => row.scope === scope);
    for (const [scope, min, max] of [
      ['global', 550, 900],
      ['club', 400, 1000],
      ['personal', 450, 650],
    ] as const) {
      expect(byScope(scope)).toHaveLength(5);
      for (const row of byScope(scope)) {
        expect(row.rewardXp).toBeGreaterThanOrEqual(min);
        expect(row.rewardXp).toBeLessThanOrEqual(max);
      }
    }
    const badges = await getSql()`select key from challenge_badge where key = any(${first.map((row) => row.badge)}::text[])`;
    expect(badges).toHaveLength(15);
    const knockout = first.find((row) => row.presetKey.startsWith('club-knockout-cup'));
    expect(knockout?.endsAt).toEqual(new Date('2027-01-01T00:00:00Z'));

    const member = unique('member');
    const globalPreset = first.find((row) => row.presetKey === 'global-shots-500');
    const participation = await joinChallenge(getSql(), member, globalPreset!.id, {}, now);
    await getSql()`update challenge set title = 'edited by hand', reward_xp = 1 where id = ${globalPreset!.id}`;

    expect(await seedChallenges(getSql(), { clubId: club.clubId, personalUserId: personalUser }, now)).toMatchObject({ templates: 15 });
    const second = await ours();
    expect(second.map((row) => row.id)).toEqual(first.map((row) => row.id));
    // Restored in both languages; the German one is the text for a reader whose language has none.
    expect(second.find((row) => row.id === globalPreset!.id)).toMatchObject({
      title: '500 Schüsse in 30 Tagen',
      titles: { de: '500 Schüsse in 30 Tagen', en: '500 shots in 30 days' },
      rewardXp: 550,
    });
    const [kept] = await getSql()<
      { id: string; status: string }[]
    >`select id, status from challenge_participation where id = ${participation.id}`;
    expect(kept).toEqual({ id: participation.id, status: 'active' });
  });

  it('skips club presets without SEED_CLUB_ID and refuses an unknown club', async () => {
    const outcome = await seedChallenges(getSql(), {});
    expect(outcome.templates).toBe(10);
    expect(outcome.skipped).toHaveLength(5);
    await expect(seedChallenges(getSql(), { clubId: unique('missing') })).rejects.toThrow('SEED_CLUB_ID names no club');
  });
});
