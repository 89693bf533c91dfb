import type { Page } from 'playwright-core';
import { getSql } from '../../shared/db/client';
import { notify } from '../../shared/notifications/notify';
import { unique } from '../challenges/support';
import { bearer, tokenFor } from '../support/tokens';
import { screenshot, signIn, useAppRig } from './support';

/** The bell, the inbox (read, read all, delete, delete all) and the notification settings round trip. */
describe('member app inbox and settings', () => {
  const rig = useAppRig();
  const member = unique('inbox-member');
  let page: Page;

  const post = (title: string) =>
    getSql().begin((tx) =>
      notify(tx, {
        userId: member,
        title,
        body: `About ${title}`,
        tone: 'info',
        kind: 'challenge',
        category: 'training',
        source: 'test',
        channels: [],
      }),
    );
  const bell = () => page.getByTestId('bell');

  beforeAll(async () => {
    page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(member));
  });

  it('shows designed empty states: no count on the bell, an empty inbox', async () => {
    await page.goto(`${rig.host.url}/app/#/inbox`);
    await page.getByTestId('empty').waitFor();
    expect(await page.getByTestId('empty').innerText()).toBe('No notifications.');
    expect(await bell().getAttribute('aria-label')).toBe('Notifications: 0 unread');
    expect(await page.getByTestId('bell-count').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete all' }).isDisabled()).toBe(true);
    await screenshot(page, 'inbox-empty');
  });

  it('counts a new notification on the bell, and the inbox reads, deletes and clears through the canonical endpoints', async () => {
    for (const title of ['First news', 'Second news', 'Third news']) await post(title);
    await page.reload();
    await page.getByRole('link', { name: 'Notifications: 3 unread' }).waitFor();
    expect(await page.getByTestId('bell-count').innerText()).toBe('3');
    const items = page.getByTestId('inbox-item');
    await items.first().waitFor();
    expect(await items.locator('.inbox-title').allTextContents()).toEqual([
      'Unread: Third news',
      'Unread: Second news',
      'Unread: First news',
    ]);
    await screenshot(page, 'inbox');

    await page.getByRole('button', { name: 'Mark read: Second news' }).click();
    await page.getByRole('link', { name: 'Notifications: 2 unread' }).waitFor();
    // The bell's read may return first: wait for the inbox's own reload before reading its buttons.
    await page.getByTestId('inbox-unread').getByText('2 unread', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Mark read: Second news' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Delete: First news' }).click();
    await page.getByRole('button', { name: 'Delete: First news' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Notifications: 1 unread' }).waitFor();

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('link', { name: 'Notifications: 0 unread' }).waitFor();
    // The bell and the inbox reload separately; the inbox keeps its old page until its own read returns.
    await page.getByTestId('inbox-unread').getByText('0 unread', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Delete all' }).click();
    await page.getByTestId('empty').waitFor();
    const inbox = (await (await rig.host.request('GET', '/api/notifications', { headers: await bearer(member) })).json()) as {
      items: unknown[];
    };
    expect(inbox.items).toEqual([]);
  });

  it('pages a long inbox: fifty entries first, the rest behind "Show more", which then goes away', async () => {
    // Starts from an empty inbox whatever the test before left behind.
    expect((await rig.host.request('DELETE', '/api/notifications', { headers: await bearer(member) })).status).toBe(204);
    for (let n = 1; n <= 53; n += 1) await post(`Paged news ${n}`);
    await page.goto(`${rig.host.url}/app/#/inbox`);
    await page.reload();
    const items = page.getByTestId('inbox-item');
    await items.first().waitFor();
    expect(await items.count()).toBe(50);
    expect(await items.first().locator('.inbox-title').textContent()).toBe('Unread: Paged news 53');

    const more = page.getByRole('button', { name: 'Show more' });
    await more.focus();
    await page.keyboard.press('Enter');
    await more.waitFor({ state: 'detached' });
    expect(await items.count()).toBe(53);
    expect(await items.last().locator('.inbox-title').textContent()).toBe('Unread: Paged news 1');
    await screenshot(page, 'inbox-paged');

    await page.getByRole('button', { name: 'Delete all' }).click();
    await page.getByTestId('empty').waitFor();
  });

  it('writes every changed key of the notifications block and reads it back after a reload', async () => {
    // The email switches work once an address is confirmed: the sign-in's verified one is at once.
    const email = `${member}@example.org`;
    const contact = await rig.host.request('PUT', '/api/user/contact', {
      headers: await bearer(member, { claims: { email, email_verified: true } }),
      json: { email, language: 'en' },
    });
    expect(contact.status).toBe(200);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings' }).click();
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    await form.getByText('15 minutes before', { exact: true }).click();
    await form.getByText('Youth', { exact: true }).click();
    await form.getByLabel('How often').selectOption('weekly');
    await form.getByLabel('Time of the summary').fill('07:30');
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/api/user/settings') && response.request().method() === 'PUT',
    );
    await form.getByRole('button', { name: 'Save' }).click();
    const request = (await saved).request().postDataJSON() as { notifications: Record<string, unknown> };
    // The canonical form: the whole v1 block, no legacy flat fields.
    expect(Object.keys(request)).toEqual(['notifications']);
    expect(request.notifications['version']).toBe(1);
    await page.getByTestId('settings-status').getByText('Saved.').waitFor();
    await screenshot(page, 'settings');

    await page.reload();
    await form.waitFor();
    expect(await form.getByRole('switch', { name: '15 minutes before' }).isChecked()).toBe(true);
    expect(await form.getByRole('switch', { name: 'Youth' }).isChecked()).toBe(false);
    expect(await form.getByLabel('How often').inputValue()).toBe('weekly');
    expect(await form.getByLabel('Time of the summary').inputValue()).toBe('07:30');
    const stored = (await (await rig.host.request('GET', '/api/user/settings', { headers: await bearer(member) })).json()) as {
      notifications: {
        reminders: { minutes15: boolean };
        email: { categories: { youth: boolean } };
        summary: { mode: string; time: string };
      };
    };
    expect([stored.notifications.reminders.minutes15, stored.notifications.email.categories.youth, stored.notifications.summary]).toEqual([
      true,
      false,
      { mode: 'weekly', time: '07:30' },
    ]);
  });

  it('names the broken rule in a sentence, never the field path, and saves nothing', async () => {
    const form = page.getByTestId('settings-form');
    await form.getByRole('switch', { name: 'Do not disturb' }).check({ force: true });
    await form.getByRole('button', { name: 'Save' }).click();
    const error = form.getByTestId('error');
    await error.waitFor();
    expect(await error.innerText()).toContain('Please check: the do-not-disturb times (start and end).');
    expect(await error.innerText()).not.toContain('body.');
    await screenshot(page, 'settings-error');
    const stored = (await (await rig.host.request('GET', '/api/user/settings', { headers: await bearer(member) })).json()) as {
      notifications: { dnd: { enabled: boolean } };
    };
    expect(stored.notifications.dnd.enabled).toBe(false);
  });

  it('keeps the sharing defaults new participations start with', async () => {
    const sharing = page.getByTestId('sharing-defaults');
    const put = page.waitForResponse(
      (response) => response.url().endsWith('/sharing-preferences') && response.request().method() === 'PUT',
    );
    await sharing.getByText('Share within my club').click();
    expect((await put).status()).toBe(200);
    const stored = await (await rig.host.request('GET', '/api/challenges/sharing-preferences', { headers: await bearer(member) })).json();
    expect(stored).toEqual({ shareWithinClub: true, shareGlobally: false });
  });
});
