import { compileTemplate } from '../../shared/http/pathTemplate';
import { resolveSchedule } from '../../development/devhost/schedule';

describe('route templates', () => {
  it.each([
    ['api/notifications/{*rest}', '/api/notifications', {}],
    ['api/notifications/{*rest}', '/api/notifications/abc/read', { rest: 'abc/read' }],
    ['/api/notifications/{id}/read', '/api/notifications/a%20b/read', { id: 'a b' }],
    ['/healthz', '/HEALTHZ/', {}],
    // The query is not part of the path; a malformed escape is kept as sent.
    ['/api/notifications/{id}', '/api/notifications/abc?x=/y', { id: 'abc' }],
    ['/api/notifications/{id}', '/api/notifications/100%zz', { id: '100%zz' }],
    ['/api/challenges/{id}/leaderboard', '/api/challenges/C-1/leaderboard?scope=global', { id: 'C-1' }],
  ])('%s matches %s', (template, path, params) => {
    expect(compileTemplate(template).match(path)).toEqual(params);
  });

  it.each([
    ['/api/notifications/{id}/read', '/api/notifications/read'],
    ['/api/notifications/{id}', '/api/notifications/a/b'],
    ['api/edge/{*rest}', '/api/edgex'],
  ])('%s does not match %s', (template, path) => {
    expect(compileTemplate(template).match(path)).toBeUndefined();
  });

  it('ranks literal segments above parameters above catch-alls', () => {
    const literal = compileTemplate('/api/notifications/read-all').specificity;
    const parameter = compileTemplate('/api/notifications/{id}').specificity;
    const group = compileTemplate('api/notifications/{*rest}').specificity;
    const everything = compileTemplate('{*rest}').specificity;
    expect(literal).toBeGreaterThan(parameter);
    expect(parameter).toBeGreaterThan(group);
    expect(group).toBeGreaterThan(everything);
  });
});

describe('timer schedules', () => {
  const settings: Record<string, string> = { CLEANUP_SCHEDULE: '0 30 3 * * *' };
  it('resolves %SETTING% expressions and keeps six-field NCRONTAB', () => {
    expect(resolveSchedule('%CLEANUP_SCHEDULE%', (name) => settings[name])).toBe('0 30 3 * * *');
    expect(resolveSchedule('0 */5 * * * *', () => undefined)).toBe('0 */5 * * * *');
  });
  it('rejects unset settings and five-field expressions', () => {
    expect(() => resolveSchedule('%MISSING%', () => undefined)).toThrow(
      /setting MISSING, which is not set: local.settings.sample.json has/,
    );
    expect(() => resolveSchedule('*/5 * * * *', () => undefined)).toThrow(/six fields/);
  });
});
