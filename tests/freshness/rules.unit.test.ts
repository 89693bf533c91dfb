import * as v from 'valibot';
import { freshnessHint, HINT_CODES, type HintCode, type HintInput } from '../../shared/freshness/hints';
import { StarterlistPushSchema } from '../../shared/freshness/starterlists';
import { checkPlanRules, TrainingPlanBodySchema, type TrainingPlanBody } from '../../shared/freshness/trainingPlan';
import { humanTextSchema } from '../../shared/validation/humanText';

const body = (input: unknown): TrainingPlanBody => v.parse(TrainingPlanBodySchema, input);
const errorPaths = (input: unknown) => {
  const result = checkPlanRules(body(input));
  return 'errors' in result ? result.errors.map((error) => error.path) : [];
};

describe('training plan rules', () => {
  it('defaults the time zone to Europe/Berlin and canonicalises a known one', () => {
    expect(checkPlanRules(body({ evenings: [{ weekday: 'wednesday', start: '18:00', end: '20:00' }] }))).toEqual({
      plan: { timeZone: 'Europe/Berlin', evenings: [{ weekday: 'wednesday', start: '18:00', end: '20:00', endsNextDay: false }] },
    });
    expect(
      checkPlanRules(body({ timeZone: 'europe/vienna', evenings: [{ weekday: 'monday', start: '19:00', end: '21:00' }] })),
    ).toMatchObject({
      plan: { timeZone: 'Europe/Vienna' },
    });
  });

  it.each<[string, unknown, string[]]>([
    ['an unknown time zone', { timeZone: 'Mars/Olympus', evenings: [{ weekday: 'monday', start: '18:00', end: '20:00' }] }, ['timeZone']],
    ['an offset instead of a zone', { timeZone: '+01:00', evenings: [{ weekday: 'monday', start: '18:00', end: '20:00' }] }, ['timeZone']],
    [
      'an end before the start without endsNextDay',
      { evenings: [{ weekday: 'monday', start: '20:00', end: '18:00' }] },
      ['evenings.0.end'],
    ],
    ['an end equal to the start', { evenings: [{ weekday: 'monday', start: '18:00', end: '18:00' }] }, ['evenings.0.end']],
    [
      'endsNextDay with an end after the start (longer than a day)',
      { evenings: [{ weekday: 'monday', start: '18:00', end: '19:00', endsNextDay: true }] },
      ['evenings.0.end'],
    ],
    [
      'two overlapping evenings on one day',
      {
        evenings: [
          { weekday: 'tuesday', start: '18:00', end: '20:00' },
          { weekday: 'tuesday', start: '19:30', end: '21:00' },
        ],
      },
      ['evenings.1'],
    ],
    [
      'an evening past midnight overlapping the next day’s',
      {
        evenings: [
          { weekday: 'friday', start: '20:00', end: '02:00', endsNextDay: true },
          { weekday: 'saturday', start: '01:00', end: '03:00' },
        ],
      },
      ['evenings.1'],
    ],
    [
      'a Saturday night running into a Sunday evening (week wrap)',
      {
        evenings: [
          { weekday: 'sunday', start: '00:30', end: '02:00' },
          { weekday: 'saturday', start: '22:00', end: '01:00', endsNextDay: true },
        ],
      },
      ['evenings.1'],
    ],
  ])('refuses %s, naming the field', (_label, input, paths) => {
    expect(errorPaths(input)).toEqual(paths);
  });

  it('accepts adjacent evenings and one across midnight', () => {
    expect(
      errorPaths({
        evenings: [
          { weekday: 'friday', start: '18:00', end: '20:00' },
          { weekday: 'friday', start: '20:00', end: '01:00', endsNextDay: true },
          { weekday: 'saturday', start: '01:00', end: '03:00' },
        ],
      }),
    ).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['no evenings', { evenings: [] }, 'evenings'],
    ['an unknown weekday', { evenings: [{ weekday: 'funday', start: '18:00', end: '20:00' }] }, 'evenings.0.weekday'],
    ['a time that is no clock time', { evenings: [{ weekday: 'monday', start: '24:00', end: '20:00' }] }, 'evenings.0.start'],
    ['a time with seconds', { evenings: [{ weekday: 'monday', start: '18:00', end: '20:00:00' }] }, 'evenings.0.end'],
  ])('the schema refuses %s', (_label, input, path) => {
    const result = v.safeParse(TrainingPlanBodySchema, input);
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => v.getDotPath(issue))).toContain(path);
  });
});

describe('rule 6 hints', () => {
  const evening = { start: new Date('2026-11-18T17:00:00Z'), end: new Date('2026-11-18T19:00:00Z') };
  const base: HintInput = {
    status: 'stale',
    evening,
    edgeTokenLastUsedAt: new Date('2026-11-19T00:00:00Z'),
    lastStarterlistSeenAt: null,
    boxCheck: null,
  };

  it.each<[string, Partial<HintInput>, HintCode | null]>([
    ['a box that never called the cloud', { edgeTokenLastUsedAt: null }, 'box_offline'],
    ['a box silent since before the evening ended', { edgeTokenLastUsedAt: new Date('2026-11-18T18:59:00Z') }, 'box_offline'],
    [
      'box check green after the evening',
      { boxCheck: { checkedAt: new Date('2026-11-19T05:00:00Z'), hitsAfterEvening: true } },
      'transport_stalled',
    ],
    [
      'box check red after the evening',
      { boxCheck: { checkedAt: new Date('2026-11-19T05:00:00Z'), hitsAfterEvening: false } },
      'nothing_shot',
    ],
    [
      'a box check from before the evening does not count; fresh starter lists do',
      {
        boxCheck: { checkedAt: new Date('2026-11-12T05:00:00Z'), hitsAfterEvening: true },
        lastStarterlistSeenAt: new Date('2026-11-18T17:10:00Z'),
      },
      'shot_path_broken',
    ],
    ['starter lists since the evening started', { lastStarterlistSeenAt: new Date('2026-11-18T17:00:00Z') }, 'shot_path_broken'],
    ['starter lists only from before the evening', { lastStarterlistSeenAt: new Date('2026-11-18T16:59:00Z') }, 'nothing_shot'],
    ['a live box without any other sign', {}, 'nothing_shot'],
    ['a club that never delivered gets the hint too', { status: 'unknown', edgeTokenLastUsedAt: null }, 'box_offline'],
    ['a fresh club gets none', { status: 'ok', edgeTokenLastUsedAt: null }, null],
    ['an unusable signal gets none', { status: 'error', edgeTokenLastUsedAt: null }, null],
  ])('%s', (_label, overrides, code) => {
    const hint = freshnessHint({ ...base, ...overrides });
    expect(hint?.code ?? null).toBe(code);
    if (hint) expect(hint.message.length).toBeGreaterThan(20);
  });

  it('has a distinct sentence for every code', () => {
    const messages = HINT_CODES.map((code) => freshnessHint({ ...base, ...inputFor(code) })?.message);
    expect(new Set(messages).size).toBe(HINT_CODES.length);
  });

  function inputFor(code: HintCode): Partial<HintInput> {
    const checked = new Date('2026-11-19T05:00:00Z');
    switch (code) {
      case 'box_offline':
        return { edgeTokenLastUsedAt: null };
      case 'transport_stalled':
        return { boxCheck: { checkedAt: checked, hitsAfterEvening: true } };
      case 'shot_path_broken':
        return { lastStarterlistSeenAt: new Date('2026-11-18T18:00:00Z') };
      case 'nothing_shot':
        return {};
    }
  }
});

describe('human-readable text', () => {
  it.each<[string, string]>([
    ['a soft hyphen (Cf)', 'Luft\u00adgewehr'],
    ['a right-to-left override (Cf)', 'Liste \u202eA'],
    ['a zero-width space (Cf)', 'Liste\u200bA'],
    ['a word joiner (Cf)', 'Liste\u2060A'],
    ['a tag character (Cf)', 'Liste \u{E0041}'],
    ['a variation selector (default-ignorable, not Cf)', 'Liste\ufe0f'],
    ['a Hangul filler (default-ignorable, not Cf)', 'Liste\u3164'],
    ['a combining grapheme joiner (default-ignorable)', 'Liste\u034f'],
    ['a control character', 'Liste\u0007'],
    ['a line separator', 'Liste\u2028A'],
    ['a lone surrogate', 'Liste \ud800'],
  ])('refuses %s', (_label, text) => {
    expect(v.safeParse(humanTextSchema(200), text).success).toBe(false);
  });

  it.each([['Schützenverein Groß-Gerau 1897 e.V.'], ['Łódź Strzelcy'], ['Luftgewehr 10 m – Auflage'], ['🎯 Abendliste']])(
    'accepts %s',
    (text) => {
      expect(v.safeParse(humanTextSchema(200), text).success).toBe(true);
    },
  );

  it('trims and bounds the length', () => {
    const schema = humanTextSchema(5);
    expect(v.parse(schema, '  abc  ')).toBe('abc');
    expect(v.safeParse(schema, '   ').success).toBe(false);
    expect(v.safeParse(schema, 'abcdef').success).toBe(false);
  });
});

describe('starter-list push schema', () => {
  const list = {
    id: 'SL-2026-11-18-1',
    name: 'Luftgewehr Abend',
    date: '2026-11-18',
    discipline: 'Luftgewehr',
    laneCount: 12,
    startersCount: 30,
  };

  it('accepts lists without personal data', () => {
    expect(v.safeParse(StarterlistPushSchema, { starterlists: [list] }).success).toBe(true);
  });

  it.each<[string, unknown, string]>([
    [
      'a list carrying starters (personal data)',
      { starterlists: [{ ...list, starters: [{ name: 'Max Mustermann' }] }] },
      'starterlists.0.starters',
    ],
    ['an invisible character in the name', { starterlists: [{ ...list, name: 'Liste\u200b' }] }, 'starterlists.0.name'],
    ['a date that does not exist', { starterlists: [{ ...list, date: '2026-02-30' }] }, 'starterlists.0.date'],
    ['a negative starters count', { starterlists: [{ ...list, startersCount: -1 }] }, 'starterlists.0.startersCount'],
    ['a fractional lane count', { starterlists: [{ ...list, laneCount: 1.5 }] }, 'starterlists.0.laneCount'],
    ['the same id twice', { starterlists: [list, list] }, 'starterlists'],
    ['an unknown top-level member', { starterlists: [], members: [] }, 'members'],
  ])('refuses %s', (_label, input, path) => {
    const result = v.safeParse(StarterlistPushSchema, input);
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => v.getDotPath(issue) ?? '')).toContain(path);
  });
});
