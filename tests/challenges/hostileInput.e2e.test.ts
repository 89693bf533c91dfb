import { getSql } from '../../shared/db/client';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { unique } from './support';

/** POST /api/challenges with values JSON can carry but no challenge can hold. */
describe('POST /api/challenges with impossible values', () => {
  const host = useTestHost();

  /** The body as raw JSON text: JSON.stringify cannot write 1e999. */
  const post = async (title: string, fields: string) =>
    host.request('POST', '/api/challenges', {
      headers: { ...(await bearer(unique('admin'), { roles: ['platform_admin'] })), 'content-type': 'application/json' },
      body: `{"scope":"global","title":"${title}","difficulty":"medium","durationDays":30,${fields}}`,
    });
  const stored = async (title: string) => getSql()`select 1 from challenge where title = ${title}`;

  const expectRefused = async (response: Response, title: string, errors: { path: string; message: string }[]) => {
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const { errors: named } = (await response.json()) as { errors: unknown[] };
    expect(named).toHaveLength(errors.length);
    expect(named).toEqual(expect.arrayContaining(errors));
    expect(await stored(title)).toHaveLength(0);
  };

  it('endsAt on 31 February is a 400 naming body.endsAt, not a challenge ending on 3 March', async () => {
    const title = unique('Ends on a day that does not exist');
    const response = await post(title, '"endsAt":"2031-02-31T00:00:00Z","rulesJson":{"goal":{"metric":"shots","target":200}}');
    await expectRefused(response, title, [
      { path: 'body.endsAt', message: 'must be a date and time that exist (2031-02-31 00:00:00 does not)' },
    ]);
  });

  it('endsAt on a real day is stored as sent', async () => {
    const title = unique('Ends on a real day');
    const response = await post(title, '"endsAt":"2031-02-28T00:00:00Z","rulesJson":{"goal":{"metric":"shots","target":200}}');
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ endsAt: '2031-02-28T00:00:00.000Z' });
  });

  it('personalization.average 1e999 (Infinity once parsed) is a 400 naming the field, not a null stored', async () => {
    const title = unique('Infinite average');
    const response = await post(
      title,
      '"rulesJson":{"goal":{"metric":"shots","target":200},"personalization":{"average":1e999,"multiplier":0.1,"lookbackDays":56,"sessions":-1e999}}',
    );
    await expectRefused(response, title, [
      { path: 'body.rulesJson.personalization.average', message: 'must be a finite number' },
      { path: 'body.rulesJson.personalization.sessions', message: 'must be a finite number' },
    ]);
  });
});
