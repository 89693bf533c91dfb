import { awardBadge, upsertBadge } from '../../shared/challenges/badgeRepository';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { badge } from '../../shared/challenges/presets';
import { getSql } from '../../shared/db/client';
import { saveContact } from '../../shared/notifications/contactRepository';
import { notify } from '../../shared/notifications/notify';
import type { ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { addMember, createClub, makeChallenge, unique } from './support';

/** Server-written text over HTTP: Accept-Language first, then the stored language, then German. */

const body = (overrides: Record<string, unknown>) => ({
  scope: 'club',
  difficulty: 'medium',
  durationDays: 30,
  rewardXp: 600,
  rulesJson: { goal: { metric: 'shots', target: 200 } },
  ...overrides,
});

describe('texts in the reader’s language', () => {
  const host = useTestHost();
  const call = async (user: string, method: string, path: string, options: { json?: unknown; language?: string } = {}) =>
    host.request(method, path, {
      headers: { ...(await bearer(user)), ...(options.language ? { 'accept-language': options.language } : {}) },
      json: options.json,
    });

  async function titlesSeenBy(user: string, clubId: string, language?: string) {
    const response = await call(user, 'GET', '/api/challenges?scope=club&limit=100', { language });
    expect(response.headers.get('vary')).toBe('Accept-Language');
    const page = (await response.json()) as { items: { clubId: string; title: string; description: string | null }[] };
    return page.items.filter((item) => item.clubId === clubId).map((item) => [item.title, item.description]);
  }

  it('lets a leader give both languages and shows each reader theirs', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    const reader = unique('reader');
    await addMember(clubId, leader, 'leader');
    await addMember(clubId, reader);
    const created = await call(leader, 'POST', '/api/challenges', {
      language: 'en-GB',
      json: body({
        clubId,
        titles: { de: 'Herbstserie', en: 'Autumn series' },
        descriptions: { de: 'Zehn Abende im Oktober.', en: 'Ten evenings in October.' },
      }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ title: 'Autumn series', description: 'Ten evenings in October.' });

    expect(await titlesSeenBy(reader, clubId, 'de')).toEqual([['Herbstserie', 'Zehn Abende im Oktober.']]);
    expect(await titlesSeenBy(reader, clubId, 'fr, en;q=0.5')).toEqual([['Autumn series', 'Ten evenings in October.']]);
    // No header: German, until the member stores English.
    expect(await titlesSeenBy(reader, clubId)).toEqual([['Herbstserie', 'Zehn Abende im Oktober.']]);
    await saveContact(getSql(), reader, { email: null, language: 'en' });
    expect(await titlesSeenBy(reader, clubId)).toEqual([['Autumn series', 'Ten evenings in October.']]);
    expect(await titlesSeenBy(reader, clubId, 'de-CH')).toEqual([['Herbstserie', 'Zehn Abende im Oktober.']]);
  });

  it('names the challenge above its leaderboard in the reader’s language', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const created = await call(leader, 'POST', '/api/challenges', {
      json: body({ clubId, titles: { de: 'Winterpokal', en: 'Winter cup' } }),
    });
    const { id } = (await created.json()) as { id: string };
    const boardTitle = async (language: string) => {
      const response = await call(leader, 'GET', `/api/challenges/${id}/leaderboard?scope=club`, { language });
      expect(response.headers.get('vary')).toBe('Accept-Language');
      return ((await response.json()) as { challenge: { title: string } }).challenge.title;
    };
    expect(await boardTitle('de')).toBe('Winterpokal');
    expect(await boardTitle('en')).toBe('Winter cup');
  });

  it('falls back to the other language, and keeps the single title accepted', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    expect((await call(leader, 'POST', '/api/challenges', { json: body({ clubId, titles: { en: 'Only English' } }) })).status).toBe(201);
    expect(
      (await call(leader, 'POST', '/api/challenges', { json: body({ clubId, title: 'Vereinsabend', titles: { en: 'Club night' } }) }))
        .status,
    ).toBe(201);
    expect((await titlesSeenBy(leader, clubId, 'de')).map(([title]) => title).sort()).toEqual(['Only English', 'Vereinsabend']);
    expect((await titlesSeenBy(leader, clubId, 'en')).map(([title]) => title).sort()).toEqual(['Club night', 'Only English']);
  });

  it('refuses a template without any title, or with a hidden character in one language, and stores nothing', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const cases = [
      [body({ clubId }), 'body.title'],
      [body({ clubId, titles: {} }), 'body.title'],
      [body({ clubId, titles: { de: 'Herbst\u202eserie' } }), 'body.titles.de'],
      [body({ clubId, titles: { fr: 'Série' } }), 'body.titles.fr'],
    ] as const;
    for (const [json, path] of cases) {
      const response = await call(leader, 'POST', '/api/challenges', { json });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as ProblemJson;
      expect(problem.errors?.map((error) => error.path)).toContain(path);
    }
    expect(await titlesSeenBy(leader, clubId)).toEqual([]);
  });

  it('names badges and the inbox’s challenge notices in the reader’s language', async () => {
    const member = unique('member');
    const challenge = await makeChallenge({ title: 'Pokal', titles: { de: 'Vereinspokal', en: 'Club cup' } });
    const participation = await joinChallenge(getSql(), member, challenge.id, {});
    const badgeKey = unique('cup').toLowerCase();
    await upsertBadge(
      getSql(),
      badge(badgeKey, { de: 'Pokalsieger', en: 'Cup winner' }, 'trophy', '#d4af37', 'gold', {
        de: 'Den Pokal gewonnen',
        en: 'Won the cup',
      }),
    );
    await awardBadge(getSql(), { userId: member, badgeKey, challengeId: challenge.id, participationId: participation.id });
    await getSql().begin((tx) =>
      notify(tx, {
        userId: member,
        message: { key: 'challenges.failed', params: { challenge: { de: 'Vereinspokal', en: 'Club cup' } } },
        tone: 'info',
        kind: 'challenge',
        source: 'test',
        channels: [],
      }),
    );
    for (const [language, expected] of [
      ['en', { name: 'Cup winner', description: 'Won the cup', challengeTitle: 'Club cup', inbox: 'Challenge ended: Club cup' }],
      [
        'de',
        {
          name: 'Pokalsieger',
          description: 'Den Pokal gewonnen',
          challengeTitle: 'Vereinspokal',
          inbox: 'Challenge beendet: Vereinspokal',
        },
      ],
    ] as const) {
      const achievements = (await (await call(member, 'GET', '/api/challenges/achievements', { language })).json()) as {
        badgeGroups: { badges: { key: string; name: string; description: string; challengeTitle: string }[] }[];
      };
      const badge = achievements.badgeGroups.flatMap((group) => group.badges).find((entry) => entry.key === badgeKey);
      expect(badge).toMatchObject({ name: expected.name, description: expected.description, challengeTitle: expected.challengeTitle });
      const publicBadges = (await (
        await call(member, 'GET', `/api/challenges/members/${member}/badges`, { language })
      ).json()) as typeof achievements;
      expect(publicBadges.badgeGroups.flatMap((group) => group.badges).map((entry) => entry.name)).toEqual([expected.name]);
      const inbox = (await (await call(member, 'GET', '/api/notifications', { language })).json()) as { items: { title: string }[] };
      expect(inbox.items.map((item) => item.title)).toEqual([expected.inbox]);
    }
  });

  it('names the badge a challenge rewards, with its artwork, in the reader’s language before it is earned', async () => {
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    const badgeKey = unique('autumn').toLowerCase();
    const description = { de: 'Die Herbstserie geschafft', en: 'Finished the autumn series' };
    await upsertBadge(
      getSql(),
      badge(badgeKey, { de: 'Herbstschütze', en: 'Autumn shooter' }, 'calendar-check', '#b5651d', 'silver', description),
    );
    const rewarding = await call(leader, 'POST', '/api/challenges', {
      json: body({ clubId, title: 'Herbstserie', rulesJson: { goal: { metric: 'shots', target: 200 }, rewardBadge: badgeKey } }),
    });
    expect(rewarding.status).toBe(201);
    expect((await call(leader, 'POST', '/api/challenges', { json: body({ clubId, title: 'Ohne Abzeichen' }) })).status).toBe(201);

    const rewardsSeenBy = async (language: string) => {
      const page = (await (await call(leader, 'GET', '/api/challenges?scope=club&limit=100', { language })).json()) as {
        items: { clubId: string; title: string; rewardBadge: unknown }[];
      };
      return page.items.filter((item) => item.clubId === clubId).map((item) => [item.title, item.rewardBadge]);
    };
    const art = { key: badgeKey, icon: 'calendar-check', colour: '#b5651d', quality: 'silver' };
    expect(await rewardsSeenBy('de')).toEqual([
      ['Ohne Abzeichen', null],
      ['Herbstserie', { ...art, name: 'Herbstschütze' }],
    ]);
    expect(await rewardsSeenBy('en')).toEqual([
      ['Ohne Abzeichen', null],
      ['Herbstserie', { ...art, name: 'Autumn shooter' }],
    ]);
  });
});
