import { clickTarget, notificationFromPush, windowToReuse } from '../../app/sw/notification';
import { webPushPayload } from '../../shared/notifications/channels/webPush/webPushChannel';

const ID = '4f1c8a2e-0000-4000-8000-000000000001';
const OTHER = '4f1c8a2e-0000-4000-8000-000000000002';
const SCOPE = 'https://clubs.example.org/app/';

describe('the service worker: the notification a push shows', () => {
  it('shows exactly what the delivery worker sends: title and body as written, sound, the inbox ids and the inbox link', () => {
    const sent = webPushPayload({
      title: 'Training verlegt',
      body: 'Jetzt um 19:00.',
      sound: true,
      notificationIds: [ID],
      collapseKey: 'k',
    });
    expect(notificationFromPush(JSON.stringify(sent))).toEqual({
      title: 'Training verlegt',
      options: {
        body: 'Jetzt um 19:00.',
        tag: `inbox:${ID}`,
        silent: false,
        data: { notificationIds: [ID], url: '/app/#/inbox' },
      },
    });
  });

  it('is silent when the member turned push sound off, and a summary of several entries keeps them all', () => {
    const sent = webPushPayload({
      title: '5 new notifications',
      body: 'A · B',
      sound: false,
      notificationIds: [ID, OTHER],
      collapseKey: 'k',
    });
    const shown = notificationFromPush(JSON.stringify(sent));
    expect(shown?.options).toMatchObject({ silent: true, tag: `inbox:${ID},${OTHER}`, data: { notificationIds: [ID, OTHER] } });
  });

  it('gives the same push sent twice (a resend after a crash) the same tag, so the second replaces the first', () => {
    const text = JSON.stringify({ title: 'Twice', body: '', silent: false, notificationIds: [ID] });
    expect(notificationFromPush(text)?.options.tag).toBe(notificationFromPush(text)?.options.tag);
    const other = JSON.stringify({ title: 'Twice', body: '', silent: false, notificationIds: [OTHER] });
    expect(notificationFromPush(other)?.options.tag).not.toBe(notificationFromPush(text)?.options.tag);
  });

  it('takes a payload without body, sound flag or ids', () => {
    expect(notificationFromPush(JSON.stringify({ title: 'Only a title' }))).toEqual({
      title: 'Only a title',
      options: { body: '', tag: 'inbox:Only a title', silent: false, data: { notificationIds: [], url: '/app/#/inbox' } },
    });
  });

  it.each<[string, string | null | undefined]>([
    ['no data', null],
    ['undefined', undefined],
    ['empty text', ''],
    ['not JSON', 'hello'],
    ['truncated JSON', '{"title":"x"'],
    ['JSON null', 'null'],
    ['a string', '"Training"'],
    ['an array', '[{"title":"x"}]'],
    ['no title', '{"body":"x"}'],
    ['a blank title', '{"title":"   "}'],
    ['a title that is not text', '{"title":5}'],
    ['a body that is not text', '{"title":"x","body":{"html":"<b>"}}'],
    ['silent not a boolean', '{"title":"x","silent":"yes"}'],
    ['ids not a list', `{"title":"x","notificationIds":"${ID}"}`],
    ['an id that is not text', '{"title":"x","notificationIds":[1]}'],
    ['an empty id', '{"title":"x","notificationIds":[""]}'],
  ])('shows nothing for %s, without throwing', (_name, text) => {
    expect(notificationFromPush(text)).toBeNull();
  });

  it('cuts an overlong title and body to what a lock screen shows', () => {
    const shown = notificationFromPush(JSON.stringify({ title: 'T'.repeat(500), body: 'B'.repeat(5000) }));
    expect([shown?.title.length, shown?.options.body.length]).toEqual([120, 500]);
  });
});

describe('the service worker: where a click leads', () => {
  it('opens the link the notification carries, absolute in the app', () => {
    expect(clickTarget({ url: '/app/#/inbox' }, SCOPE)).toBe('https://clubs.example.org/app/#/inbox');
  });

  it.each<[string, unknown]>([
    ['no data', null],
    ['no url', { notificationIds: [ID] }],
    ['a url that is not text', { url: 42 }],
    ['another origin', { url: 'https://evil.example/app/' }],
    ['another path of the origin', { url: '/portal/' }],
    ['a javascript: url', { url: 'javascript:alert(1)' }],
  ])('falls back to the inbox for %s', (_name, data) => {
    expect(clickTarget(data, SCOPE)).toBe('https://clubs.example.org/app/#/inbox');
  });

  it('reuses a window that shows the app, the focused one first; never one outside it', () => {
    const portal = { url: 'https://clubs.example.org/portal/', focused: true };
    const app = { url: 'https://clubs.example.org/app/#/challenges', focused: false };
    const focusedApp = { url: 'https://clubs.example.org/app/#/profile', focused: true };
    expect(windowToReuse([portal, app, focusedApp], SCOPE)).toBe(focusedApp);
    expect(windowToReuse([portal, app], SCOPE)).toBe(app);
    expect(windowToReuse([portal, { url: 'https://evil.example/app/' }], SCOPE)).toBeUndefined();
  });
});
