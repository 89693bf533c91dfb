import { isFailing, pushState, type PushState } from '../../shared/portal/boxPushState';

const now = new Date('2026-11-26T06:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

describe('pushState: whether a box push channel delivers (24 h window)', () => {
  it.each<[string, Date | null, Date | null, PushState]>([
    ['never accepted, box calls', null, hoursAgo(0), 'never'],
    ['never accepted, box silent', null, null, 'never'],
    ['accepted an hour ago', hoursAgo(1), hoursAgo(1), 'ok'],
    ['accepted exactly 24 h ago', hoursAgo(24), hoursAgo(30), 'ok'],
    ['accepted 25 h ago, box called an hour ago: refused', hoursAgo(25), hoursAgo(1), 'refused'],
    ['accepted 3 days ago, box called 23 h ago: refused', hoursAgo(72), hoursAgo(23), 'refused'],
    ['accepted 3 days ago, box last called 2 days ago: stopped', hoursAgo(72), hoursAgo(48), 'stopped'],
    ['accepted 3 days ago, token never used since it was replaced: stopped', hoursAgo(72), null, 'stopped'],
  ])('%s', (_case, lastAcceptedAt, tokenLastUsedAt, expected) => {
    expect(pushState({ lastAcceptedAt, tokenLastUsedAt }, now, 24)).toBe(expected);
  });

  it('counts refused and stopped as failing, never and ok not', () => {
    expect((['ok', 'never', 'refused', 'stopped'] as const).filter(isFailing)).toEqual(['refused', 'stopped']);
  });
});
