import path from 'node:path';
import { readableOn } from '../../app/src/badges';
import { ICON_PATHS } from '../../app/src/badgeArt';
import { callToAction, defaultBoard, percent } from '../../app/src/cards';
import type { TextKey } from '../../app/src/i18n';
import { de } from '../../app/src/texts/de';
import { en } from '../../app/src/texts/en';
import { hashOf, parseRoute, type Route } from '../../app/src/routes';
import { settingsSections, withValue } from '../../app/src/settingsModel';
import type { ChallengeListItem } from '../../app/src/types';
import { PRESETS } from '../../shared/challenges/presets';
import { defaultPreferences } from '../../shared/notifications/preferences';
import { contrastRatio } from '../../web/kit/contrast';
import { BASE_PAIRS, paletteOf } from '../web/kit/palette';

const TEXTS = { de, en };

describe('routes', () => {
  it.each<[string, Route]>([
    ['', { screen: 'challenges', tab: 'global' }],
    ['#/challenges?tab=club', { screen: 'challenges', tab: 'club' }],
    ['#/challenges?tab=nonsense', { screen: 'challenges', tab: 'global' }],
    [
      '#/challenges?tab=club&status=active&difficulty=hard&q=Ten+shots',
      { screen: 'challenges', tab: 'club', status: 'active', difficulty: 'hard', q: 'Ten shots' },
    ],
    // Values the list does not know are left out, as if not given; the search is trimmed.
    ['#/challenges?tab=club&status=won&difficulty=&q=%20%20', { screen: 'challenges', tab: 'club' }],
    ['#/challenges?q=x&difficulty=EASY', { screen: 'challenges', tab: 'global', q: 'x' }],
    ['#/leaderboard/abc%2Fdef?board=club', { screen: 'leaderboard', challengeId: 'abc/def', board: 'club' }],
    ['#/leaderboard/abc', { screen: 'leaderboard', challengeId: 'abc', board: 'global' }],
    ['#/leaderboard/', { screen: 'challenges', tab: 'global' }],
    ['#/profile', { screen: 'profile' }],
    ['#/join?code=ABCD-EFGH', { screen: 'join', code: 'ABCD-EFGH' }],
    ['#/member/demo%2Dmember-1', { screen: 'member', userId: 'demo-member-1' }],
    ['#/member/', { screen: 'challenges', tab: 'global' }],
    ['#/unknown', { screen: 'challenges', tab: 'global' }],
  ])('%s → %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('reads back every hash it writes', () => {
    const routes: Route[] = [
      { screen: 'challenges', tab: 'personal' },
      { screen: 'challenges', tab: 'global', status: 'cancelled', difficulty: 'expert', q: 'a&b=c #1 ü' },
      { screen: 'leaderboard', challengeId: 'id with spaces/and?marks', board: 'club' },
      { screen: 'inbox' },
      { screen: 'settings' },
      { screen: 'shooter' },
      { screen: 'join', code: 'A&B=C' },
      { screen: 'member', userId: 'user/with?odd#chars' },
    ];
    for (const route of routes) expect(parseRoute(hashOf(route))).toEqual(route);
  });

  it('writes only the filters that are set, and cuts a search to the API’s 100 characters', () => {
    expect(hashOf({ screen: 'challenges', tab: 'club' })).toBe('#/challenges?tab=club');
    expect(hashOf({ screen: 'challenges', tab: 'club', difficulty: 'easy' })).toBe('#/challenges?tab=club&difficulty=easy');
    expect(parseRoute(`#/challenges?q=${'x'.repeat(150)}`)).toEqual({ screen: 'challenges', tab: 'global', q: 'x'.repeat(100) });
  });
});

describe('the call to action of a card', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  const item = (participation: Partial<NonNullable<ChallengeListItem['participation']>> | null, endsAt: string | null = null) =>
    ({ scope: 'global', endsAt, participation }) as unknown as ChallengeListItem;

  it.each([
    ['not joined, open', item(null), 'join'],
    ['not joined, ended', item(null, '2026-11-25T00:00:00Z'), 'ended'],
    ['active', item({ status: 'active' }), 'progress'],
    ['completed', item({ status: 'completed' }), 'open'],
    ['failed', item({ status: 'failed' }), 'open'],
    ['left, still open', item({ status: 'cancelled' }, '2026-12-01T00:00:00Z'), 'rejoin'],
    ['left, ended', item({ status: 'cancelled' }, '2026-11-26T10:00:00Z'), 'ended'],
  ])('%s → %s', (_name, challenge, expected) => {
    expect(callToAction(challenge, now)).toBe(expected);
  });

  it('draws progress as a whole percentage within 0..100', () => {
    expect([percent(0.604), percent(-1), percent(3), percent(Number.NaN)]).toEqual([60, 0, 100, 0]);
  });

  it('opens the club board for club challenges, the global one otherwise', () => {
    expect([defaultBoard({ scope: 'club' }), defaultBoard({ scope: 'global' }), defaultBoard({ scope: 'personal' })]).toEqual([
      'club',
      'global',
      'global',
    ]);
  });
});

describe('the notification settings form', () => {
  const leafPaths = (node: object, prefix: string[] = []): string[][] =>
    Object.entries(node).flatMap(([key, value]) =>
      typeof value === 'object' && value !== null ? leafPaths(value as object, [...prefix, key]) : [[...prefix, key]],
    );

  it('has a field for every key of the v1 block but its version, each labelled in German and English', () => {
    const block = defaultPreferences();
    const fields = settingsSections(block).flatMap((section) => section.fields.map((field) => field.path.join('.')));
    const keys = leafPaths(block)
      .map((keyPath) => keyPath.join('.'))
      .filter((key) => key !== 'version');
    expect(fields.sort()).toEqual(keys.sort());
    for (const key of fields) {
      for (const language of ['en', 'de'] as const)
        expect([language, key, TEXTS[language][`settings.${key}` as TextKey]]).toEqual([language, key, expect.any(String)]);
    }
    for (const section of settingsSections(block))
      expect(TEXTS.de[`settings.section.${section.name}` as TextKey]).toEqual(expect.any(String));
  });

  it('changes one value in a copy, leaving the rest and the original as they were', () => {
    const block = defaultPreferences();
    const changed = withValue(block, ['email', 'categories', 'youth'], false);
    expect(changed.email.categories.youth).toBe(false);
    expect(block.email.categories.youth).toBe(true);
    expect({ ...changed, email: block.email }).toEqual(block);
    expect(withValue(block, ['summary', 'time'], '07:30').summary.time).toBe('07:30');
  });

  it('knows times and the summary mode apart from switches', () => {
    const kinds = Object.fromEntries(
      settingsSections(defaultPreferences()).flatMap((section) => section.fields.map((field) => [field.path.join('.'), field.kind])),
    );
    expect([kinds['summary.mode'], kinds['summary.time'], kinds['dnd.from'], kinds['push.sound']]).toEqual([
      'mode',
      'time',
      'time',
      'flag',
    ]);
  });
});

describe('texts', () => {
  it('are not empty in either language, and fill in their placeholders', () => {
    for (const language of ['en', 'de'] as const) {
      for (const [key, text] of Object.entries(TEXTS[language]))
        expect([language, key, text.trim().length > 0]).toEqual([language, key, true]);
    }
  });
});

describe('the palette and the badges', () => {
  const colour = paletteOf(path.join(__dirname, '../../app/src/styles.css'));

  it.each([
    ...BASE_PAIRS,
    ['accent', 'bg'],
    ['header-text', 'header'],
    ['danger-text', 'danger-bg'],
    ['ok-text', 'ok-bg'],
    ['info-text', 'info-bg'],
    ['warning-text', 'warning-bg'],
    ['badge-global-text', 'badge-global-bg'],
    ['badge-club-text', 'badge-club-bg'],
    ['badge-personal-text', 'badge-personal-bg'],
  ])('--%s on --%s meets WCAG AA (4.5:1)', (foreground, background) => {
    expect(contrastRatio(colour(foreground), colour(background))).toBeGreaterThanOrEqual(4.5);
  });

  it('draws every preset badge’s icon as artwork of its own, in black or white, whichever reads at least 4.5:1 on its colour', () => {
    for (const preset of PRESETS) {
      const { colour: background, icon } = preset.badge;
      expect([icon, contrastRatio(readableOn(background), background) >= 4.5]).toEqual([icon, true]);
      expect([icon, icon in ICON_PATHS]).toEqual([icon, true]);
    }
  });
});
