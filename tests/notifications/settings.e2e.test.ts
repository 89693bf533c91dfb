import { randomUUID } from 'node:crypto';
import { defaultPreferences, mergePreferences } from '../../shared/notifications/preferences';
import type { UserSettings } from '../../shared/notifications/userSettings';
import { readJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

const newUser = () => `user-${randomUUID()}`;
const PATH = '/api/user/settings';
// These users have no confirmed contact email: email starts off for them (docs/notifications.md).
const noAddressDefaults = () => defaultPreferences({ emailConfirmed: false });

describe('notification preferences under /api/user/settings', () => {
  const host = useTestHost();

  async function send(userId: string, method: string, json?: unknown): Promise<Response> {
    return host.request(method, PATH, { headers: await bearer(userId), json });
  }
  async function settingsOf(userId: string): Promise<UserSettings> {
    const response = await send(userId, 'GET');
    expect(response.status).toBe(200);
    return readJson<UserSettings>(response);
  }

  it('answers the defaults with the legacy mirror for a new user, email off and unavailable without a confirmed address', async () => {
    const defaults = noAddressDefaults();
    expect(await settingsOf(newUser())).toEqual({
      notifications: defaults,
      timeZone: 'Europe/Berlin',
      emailAvailable: false,
      emailEnabled: false,
      pushEnabled: true,
      categories: defaults.email.categories,
      updates: defaults.updates,
    });
  });

  it('answers 401 without a token', async () => {
    expect((await host.request('GET', PATH)).status).toBe(401);
  });

  it('round-trips a full canonical block through PUT and derives the mirror', async () => {
    const user = newUser();
    // Five sections changed from the defaults; the PUT sends the whole block.
    const block = mergePreferences(defaultPreferences(), {
      email: { enabled: false, events: false, categories: { competition: false, youth: false } },
      push: { sound: false },
      summary: { mode: 'weekly', time: '18:30' },
      dnd: { enabled: true, from: '22:00', to: '07:00' },
      updates: { acceptDecline: false },
    });
    const put = await send(user, 'PUT', { notifications: block });
    expect(put.status).toBe(200);
    const expected = {
      notifications: block,
      timeZone: 'Europe/Berlin',
      emailAvailable: false,
      emailEnabled: false,
      pushEnabled: true,
      categories: block.email.categories,
      updates: block.updates,
    };
    expect(await put.json()).toEqual(expected);
    expect(await settingsOf(user)).toEqual(expected);
  });

  it('keeps users apart', async () => {
    const user = newUser();
    await send(user, 'PATCH', { notifications: { push: { enabled: false } } });
    expect((await settingsOf(newUser())).notifications.push.enabled).toBe(true);
    expect((await settingsOf(user)).notifications.push.enabled).toBe(false);
  });

  it('deep-merges a partial block on PATCH', async () => {
    const user = newUser();
    await send(user, 'PATCH', { notifications: { email: { categories: { youth: false } }, summary: { mode: 'daily' } } });
    const response = await send(user, 'PATCH', {
      notifications: { summary: { time: '07:00' }, dnd: { enabled: true, from: '23:00', to: '06:00' } },
    });
    expect(response.status).toBe(200);
    const { notifications } = await settingsOf(user);
    expect(notifications.email).toEqual({
      ...noAddressDefaults().email,
      categories: { ...noAddressDefaults().email.categories, youth: false },
    });
    expect(notifications.summary).toEqual({ mode: 'daily', time: '07:00' });
    expect(notifications.dnd).toEqual({ enabled: true, from: '23:00', to: '06:00' });
    expect(notifications.reminders).toEqual(defaultPreferences().reminders);
  });

  it('maps legacy flat fields from PUT and PATCH into the block', async () => {
    const user = newUser();
    await send(user, 'PATCH', { notifications: { summary: { mode: 'monthly' } } });
    const put = await send(user, 'PUT', { emailEnabled: false, categories: { board: false }, updates: { cancel: false } });
    expect(put.status).toBe(200);
    let settings = await settingsOf(user);
    expect(settings.notifications.email.enabled).toBe(false);
    expect(settings.notifications.email.categories.board).toBe(false);
    expect(settings.notifications.updates.cancel).toBe(false);
    expect(settings.notifications.summary.mode).toBe('monthly');
    expect(settings.emailEnabled).toBe(false);
    expect(settings.categories.board).toBe(false);

    expect((await send(user, 'PATCH', { pushEnabled: false })).status).toBe(200);
    settings = await settingsOf(user);
    expect(settings.notifications.push.enabled).toBe(false);
    expect(settings.pushEnabled).toBe(false);
  });

  it('PATCH: the block wins per field; legacy fields it does not mention still apply', async () => {
    const user = newUser();
    const response = await send(user, 'PATCH', {
      notifications: { email: { enabled: true }, updates: { edits: true } },
      emailEnabled: false,
      pushEnabled: false,
      categories: { youth: false },
      updates: { edits: false, cancel: false },
    });
    expect(response.status).toBe(200);
    const settings = await settingsOf(user);
    // Overlapping: the block's value.
    expect(settings.notifications.email.enabled).toBe(true);
    expect(settings.notifications.updates.edits).toBe(true);
    // Not in the block: the legacy value.
    expect(settings.notifications.push.enabled).toBe(false);
    expect(settings.notifications.email.categories.youth).toBe(false);
    expect(settings.notifications.updates.cancel).toBe(false);
    expect(await response.json()).toEqual(settings);
  });

  it('PUT: a full block replaces everything and legacy fields next to it are ignored', async () => {
    const user = newUser();
    await send(user, 'PUT', {
      notifications: { ...defaultPreferences(), push: { enabled: false, sound: true } },
      pushEnabled: true,
      emailEnabled: false,
      categories: { board: false },
    });
    const settings = await settingsOf(user);
    expect(settings.pushEnabled).toBe(false);
    expect(settings.emailEnabled).toBe(true);
    expect(settings.categories.board).toBe(true);
  });

  it('stores, validates and returns the time zone', async () => {
    const user = newUser();
    let response = await send(user, 'PATCH', { timeZone: 'america/new_york' });
    expect(response.status).toBe(200);
    expect((await readJson<UserSettings>(response)).timeZone).toBe('America/New_York');
    expect((await settingsOf(user)).timeZone).toBe('America/New_York');

    // A PUT without timeZone keeps it; with one, replaces it.
    response = await send(user, 'PUT', { notifications: defaultPreferences() });
    expect((await readJson<UserSettings>(response)).timeZone).toBe('America/New_York');
    response = await send(user, 'PUT', { notifications: defaultPreferences(), timeZone: 'UTC' });
    expect((await readJson<UserSettings>(response)).timeZone).toBe('UTC');

    for (const [method, timeZone] of [
      ['PATCH', 'Mars/Olympus'],
      ['PUT', '+01:00'],
      ['PATCH', 42],
    ] as const) {
      const bad = await send(user, method, { timeZone });
      expect(bad.status).toBe(400);
      const problem = (await bad.json()) as { errors: { path: string }[] };
      expect(problem.errors.map((error) => error.path)).toEqual(['body.timeZone']);
    }
    expect((await settingsOf(user)).timeZone).toBe('UTC');
  });

  it('answers PUT and PATCH with cache-control: no-store, like GET', async () => {
    const user = newUser();
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { notifications: defaultPreferences() }],
      ['PATCH', { pushEnabled: true }],
    ] as const) {
      const response = await send(user, method, body);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('ignores unknown root fields but rejects unknown keys inside the block', async () => {
    const user = newUser();
    expect((await send(user, 'PATCH', { theme: 'dark', pushEnabled: false })).status).toBe(200);
    const response = await send(user, 'PATCH', { notifications: { push: { vibrate: true } } });
    expect(response.status).toBe(400);
  });

  it.each([
    ['PUT', { notifications: { ...defaultPreferences(), summary: { mode: 'hourly', time: null } } }, 'body.notifications.summary.mode'],
    [
      'PUT',
      { notifications: { ...defaultPreferences(), dnd: { enabled: false, from: '25:00', to: null } } },
      'body.notifications.dnd.from',
    ],
    ['PUT', { notifications: { ...defaultPreferences(), version: 2 } }, 'body.notifications.version'],
    ['PUT', { notifications: { version: 1 } }, 'body.notifications.email'],
    ['PUT', { notifications: { ...defaultPreferences(), dnd: { enabled: true, from: null, to: '07:00' } } }, 'body.notifications.dnd.from'],
    ['PUT', {}, 'body'],
    ['PATCH', { notifications: { summary: { time: '7:5' } } }, 'body.notifications.summary.time'],
    ['PATCH', { notifications: { dnd: { enabled: true } } }, 'body.notifications.dnd.from'],
    ['PATCH', { notifications: { push: { vibrate: true } } }, 'body.notifications.push.vibrate'],
    ['PATCH', { notifications: { email: { categories: { youth: 'no' } } } }, 'body.notifications.email.categories.youth'],
    ['PATCH', { categories: { archery: true } }, 'body.categories.archery'],
    ['PATCH', { emailEnabled: 'yes' }, 'body.emailEnabled'],
    ['PATCH', { notifications: { email: [] } }, 'body.notifications.email'],
    ['PATCH', { notifications: { email: { categories: [] } } }, 'body.notifications.email.categories'],
    ['PATCH', { notifications: { dnd: [true] } }, 'body.notifications.dnd'],
    ['PUT', { notifications: { ...defaultPreferences(), push: [] } }, 'body.notifications.push'],
    ['PATCH', { categories: [] }, 'body.categories'],
    ['PATCH', { updates: [false] }, 'body.updates'],
    ['PATCH', { timeZone: 'Not/AZone' }, 'body.timeZone'],
  ])('%s %j answers 400 naming %s and stores nothing', async (method, body, path) => {
    const user = newUser();
    const response = await send(user, method, body);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((error) => error.path)).toContain(path);
    expect((await settingsOf(user)).notifications).toEqual(noAddressDefaults());
  });

  it('answers 400 naming body.notifications for an array in place of the block', async () => {
    for (const method of ['PUT', 'PATCH']) {
      const response = await send(newUser(), method, { notifications: [] });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { path: string; message: string }[] };
      expect(problem.errors).toEqual([{ path: 'body.notifications', message: 'must be a JSON object' }]);
    }
  });

  it('says an unknown key is not a known key', async () => {
    const response = await send(newUser(), 'PATCH', { notifications: { push: { vibrate: true } } });
    const problem = (await response.json()) as { errors: { path: string; message: string }[] };
    expect(problem.errors).toEqual([{ path: 'body.notifications.push.vibrate', message: 'is not a known key' }]);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await host.request('PUT', PATH, {
      headers: { ...(await bearer(newUser())), 'content-type': 'application/json' },
      body: '{',
    });
    expect(response.status).toBe(400);
  });
});
