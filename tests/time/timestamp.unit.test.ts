import * as v from 'valibot';
import { checkTimestamp, timestampSchema } from '../../shared/validation/timestamp';

const messages = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((issue) => issue.message);
};

describe('the strict request timestamp', () => {
  const schema = timestampSchema();

  it.each([
    '2026-11-19T05:00:00Z',
    '2026-11-19T05:00:00.123Z',
    '2026-11-19T05:00:00.123456789Z',
    '2026-11-19T06:00:00+01:00',
    '2028-02-29T23:59:59Z',
    '2000-01-01T00:00:00Z',
    '2099-12-31T23:59:59.999Z',
  ])('accepts %s and keeps it as sent', (value) => {
    expect(v.parse(schema, value)).toBe(value);
  });

  it.each([
    ['2027-02-31T05:00:00Z', '2027-02-31 05:00:00'],
    ['2031-02-31T00:00:00Z', '2031-02-31 00:00:00'],
    ['2027-02-29T00:00:00Z', '2027-02-29 00:00:00'],
    ['2026-04-31T12:00:00Z', '2026-04-31 12:00:00'],
  ])('refuses %s, a date that does not exist, with one message', (value, shown) => {
    expect(messages(schema, value)).toEqual([`must be a date and time that exist (${shown} does not)`]);
  });

  it.each([
    '2026-11-19 05:00:00Z',
    '2026-11-19T05:00Z',
    '2026-11-19T05:00:00',
    '2026-11-19T05:00:00+0100',
    '2026-11-19T24:00:00Z',
    'soon',
    '',
  ])('refuses %j as not RFC 3339 with seconds and a zone', (value) => {
    expect(messages(schema, value)).toEqual(['must be an RFC 3339 timestamp with seconds and a zone, like 2026-11-19T05:00:00Z']);
  });

  it.each(['1999-12-31T23:59:59Z', '2100-01-01T00:00:00Z', '2999-01-01T05:00:00Z', '0001-01-01T00:00:00Z'])(
    'refuses %s outside the accepted range',
    (value) => {
      expect(messages(schema, value)).toEqual(['must lie from 2000-01-01T00:00:00Z up to before 2100-01-01T00:00:00Z']);
    },
  );

  it('judges the range by the instant, offset applied', () => {
    // 2099-12-31T23:30:00Z, inside; the next one is 2100-01-01T00:30:00Z, outside.
    expect(v.parse(schema, '2100-01-01T00:30:00+01:00')).toBe('2100-01-01T00:30:00+01:00');
    expect(messages(schema, '2099-12-31T23:30:00-01:00')).toEqual(['must lie from 2000-01-01T00:00:00Z up to before 2100-01-01T00:00:00Z']);
  });

  it('bounds box-reported times to a few minutes ahead of the clock', () => {
    const now = () => new Date('2026-11-19T05:00:00Z');
    const box = timestampSchema({ maxMinutesAhead: 5, now });
    expect(v.parse(box, '2026-11-19T05:05:00Z')).toBe('2026-11-19T05:05:00Z');
    expect(v.parse(box, '2026-11-19T06:04:00+01:00')).toBe('2026-11-19T06:04:00+01:00');
    expect(messages(box, '2026-11-19T05:05:01Z')).toEqual(['must not be more than 5 minutes in the future']);
    expect(messages(box, '2027-11-19T05:00:00Z')).toEqual(['must not be more than 5 minutes in the future']);
  });

  it('names the instant, offset and fraction applied', () => {
    expect(checkTimestamp('2026-11-19T06:00:00.250+01:00')).toEqual({ instant: new Date('2026-11-19T05:00:00.250Z') });
    expect(checkTimestamp('2026-11-19T00:00:00-05:30')).toEqual({ instant: new Date('2026-11-19T05:30:00Z') });
    expect(checkTimestamp('1985-06-01T00:00:00Z', { within: { from: '1970-01-01T00:00:00Z', before: '2201-01-01T00:00:00Z' } })).toEqual({
      instant: new Date('1985-06-01T00:00:00Z'),
    });
  });
});
