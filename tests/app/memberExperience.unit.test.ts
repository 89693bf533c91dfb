import { AVATAR_COLOURS, avatarColour, initialsOf, nameOf } from '../../app/src/person';
import { daysLeft, toCelebrate } from '../../app/src/cards';
import { loadTexts, setLanguage } from '../../app/src/i18n';
import { problemText } from '../../app/src/problemText';
import { hashOf, parseRoute } from '../../app/src/routes';
import { de } from '../../app/src/texts/de';
import { en } from '../../app/src/texts/en';
import { pushFailure, whyUnsupported } from '../../app/src/pushReasons';
import { ApiError } from '../../web/kit/apiError';
import { contrastRatio } from '../../web/kit/contrast';

const problem = (status: number, code?: string, fields: string[] = []) =>
  new ApiError(
    status,
    'Bad Request',
    'body.notifications.dnd.from: is required when dnd.enabled is true',
    code,
    'req-1',
    fields.map((path) => ({ path, message: 'is required when dnd.enabled is true' })),
  );

describe('problem answers as sentences', () => {
  beforeAll(async () => {
    await loadTexts('de');
    await loadTexts('en');
  });
  afterAll(() => setLanguage('de'));

  it.each(['de', 'en'] as const)('never shows a field path, the service’s English detail or a code (%s)', (language) => {
    setLanguage(language);
    const texts = [
      problemText(problem(400, undefined, ['body.notifications.dnd.from'])),
      problemText(problem(400, undefined, ['body.somethingNew'])),
      problemText(problem(409, 'already_joined')),
      problemText(problem(409, 'a_code_the_app_does_not_know')),
      problemText(problem(503)),
      problemText(new Error('boom')),
    ];
    for (const text of texts) expect([text, /body\.|dnd\.|_|is required|boom/.test(text)]).toEqual([text, false]);
  });

  it('names the field in the reader’s words, and the do-not-disturb times once for both ends', () => {
    setLanguage('de');
    expect(problemText(problem(400, undefined, ['body.notifications.dnd.from', 'body.notifications.dnd.to']))).toBe(
      'Bitte prüfe: die Zeiten für „Nicht stören“ (Beginn und Ende).',
    );
    setLanguage('en');
    expect(problemText(problem(400, undefined, ['body.displayName']))).toBe('Please check: Name others see.');
  });

  it('gives a known code its own sentence and anything else a generic one by status', () => {
    setLanguage('en');
    expect(problemText(problem(409, 'challenge_ended'))).toBe(en['problem.code.challenge_ended']);
    expect(problemText(problem(409, 'a_code_the_app_does_not_know'))).toBe(en['problem.conflict']);
    expect(problemText(problem(400, undefined, ['body.somethingNew']))).toBe(en['problem.invalid']);
    expect(problemText(problem(502))).toBe(en['problem.server']);
    expect(problemText(problem(0))).toBe(en['state.network']);
    expect(problemText(problem(418))).toBe(en['problem.unknown']);
    setLanguage('de');
    expect(problemText(problem(410))).toBe(de['problem.code.invitation_used']);
  });
});

describe('the two catalogues', () => {
  /** Texts that are the same word in both languages on purpose (names, units, loan words). */
  const SAME = new Set(['XP', 'Challenges', 'Global', 'Status', 'Bronze', 'Gold', 'Training', 'Push', '{xp} XP', 'Finalist']);

  it('translate every text: a German text equal to its English one is a word both languages share', () => {
    const same = Object.entries(en).filter(([key, text]) => de[key as keyof typeof en] === text && !SAME.has(text));
    expect(same).toEqual([]);
  });
});

describe('people', () => {
  it('shows a neutral word, never the user id, for a person without a profile', () => {
    expect(nameOf({ userId: 'demo-leader', displayName: null }, 'Mitglied')).toBe('Mitglied');
    expect(nameOf({ userId: 'demo-leader', displayName: '  ' }, 'Member')).toBe('Member');
    expect(nameOf({ userId: 'demo-leader', displayName: 'Anna Schütz' }, 'Mitglied')).toBe('Anna Schütz');
    expect([initialsOf({ userId: 'x', initials: 'AS' }), initialsOf({ userId: 'x', initials: null })]).toEqual(['AS', '?']);
  });

  it('gives a person the same avatar colour everywhere, each colour carrying white initials at 4.5:1 or more', () => {
    expect(avatarColour('demo-member-1')).toBe(avatarColour('demo-member-1'));
    expect(new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(avatarColour)).size).toBeGreaterThan(1);
    for (const colour of AVATAR_COLOURS) expect([colour, contrastRatio('#ffffff', colour) >= 4.5]).toEqual([colour, true]);
  });
});

describe('moments and deadlines', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('counts the days left, a started day as one, none after the end', () => {
    expect([daysLeft('2026-03-10T13:00:00Z', now), daysLeft('2026-03-12T12:00:00Z', now), daysLeft('2026-03-09T12:00:00Z', now)]).toEqual([
      1, 2, 0,
    ]);
  });

  it('celebrates a completion of the last week once, and never an old one', () => {
    const fresh = { participationId: 'p1', finishedAt: '2026-03-10T11:00:00Z' };
    const old = { participationId: 'p0', finishedAt: '2026-02-01T11:00:00Z' };
    expect(toCelebrate([old, fresh], [], now)).toBe(fresh);
    expect(toCelebrate([old, fresh], ['p1'], now)).toBeUndefined();
  });
});

describe('push on this device, when it cannot work', () => {
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';
  const ipad = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15';

  it('tells an iPhone or iPad tab to add the app to the Home Screen, and any other browser that it has no push', () => {
    expect(whyUnsupported({ userAgent: iphone, maxTouchPoints: 5, standalone: false })).toBe('ios');
    expect(whyUnsupported({ userAgent: ipad, maxTouchPoints: 5, standalone: false })).toBe('ios');
    expect(whyUnsupported({ userAgent: ipad, maxTouchPoints: 0, standalone: false })).toBe('unsupported');
    expect(whyUnsupported({ userAgent: iphone, maxTouchPoints: 5, standalone: true })).toBe('unsupported');
  });

  it('says whose part failed: the browser refused, its push service, or the service', () => {
    expect(pushFailure(Object.assign(new Error('denied'), { name: 'NotAllowedError' }))).toBe('blocked');
    expect(pushFailure(Object.assign(new Error('no push service'), { name: 'AbortError' }))).toBe('pushService');
    expect(pushFailure(new ApiError(503, 'Service Unavailable', undefined, undefined, undefined))).toBe('service');
  });
});

describe('the confirmation link', () => {
  it('opens the confirmation screen with its token, and writes the same link back', () => {
    expect(parseRoute('#/confirm-email?token=abc-123_x')).toEqual({ screen: 'confirm-email', token: 'abc-123_x' });
    expect(hashOf({ screen: 'confirm-email', token: 'a b' })).toBe('#/confirm-email?token=a%20b');
  });
});
