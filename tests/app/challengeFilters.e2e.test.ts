import type { Page } from 'playwright-core';
import { makeChallenge, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { card, screenshot, signIn, useAppRig } from './support';

/**
 * The challenges' tab, search and filters live in the address: a reload, a shared link and the
 * browser's "back" show the same list (the same call to the API) with the controls set to match.
 */
describe('member app: search and filters in the address', () => {
  const rig = useAppRig();
  const tag = unique('filters');
  let easy: string;
  let hard: string;
  let page: Page;
  const app = (hash: string) => `${rig.host.url}/app/${hash}`;
  /**
   * The next list call the page makes with these parameters (undefined: absent); its whole query.
   * Waiting for the wanted one skips a call still in flight from before.
   */
  const listCall = (tab: Page, want: Record<string, string | undefined>) =>
    tab
      .waitForResponse((response) => {
        const url = new URL(response.url());
        if (url.pathname !== '/api/challenges' || response.request().method() !== 'GET') return false;
        return Object.entries(want).every(([key, value]) => url.searchParams.get(key) === (value ?? null));
      })
      .then((response) => Object.fromEntries(new URL(response.url()).searchParams));
  const shown = async (tab: Page) =>
    (await Promise.all((await tab.getByTestId('challenge-card').all()).map((el) => el.getAttribute('data-challenge-id')))).sort();

  beforeAll(async () => {
    easy = (await makeChallenge({ title: `Easy ${tag}`, difficulty: 'easy' })).id;
    hard = (await makeChallenge({ title: `Hard ${tag}`, difficulty: 'hard' })).id;
    page = await rig.newPage({ width: 390, height: 844 });
    await signIn(page, rig.host.url, await tokenFor(unique('filters-member')));
  });

  it('writes the search and each filter into the address as they are applied', async () => {
    let call = listCall(page, { scope: 'global', search: tag });
    await page.getByRole('searchbox', { name: 'Search' }).fill(`  ${tag} `);
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await call;
    expect(page.url()).toBe(app(`#/challenges?tab=global&q=${tag}`));
    await card(page, hard).waitFor();
    expect(await shown(page)).toEqual([easy, hard].sort());

    call = listCall(page, { search: tag, difficulty: 'hard' });
    await page.getByLabel('Difficulty').focus();
    await page.getByLabel('Difficulty').selectOption('hard');
    await call;
    expect(page.url()).toBe(app(`#/challenges?tab=global&difficulty=hard&q=${tag}`));
    // The list is empty while the call's answer is read: wait for the new list, then for the easy card to be gone.
    await card(page, hard).waitFor();
    await card(page, easy).waitFor({ state: 'detached' });
    expect(await shown(page)).toEqual([hard]);
    // Changing a filter leaves the focus where it was (a new screen would move it to the heading).
    expect(await page.evaluate<string | undefined>('document.activeElement?.tagName')).toBe('SELECT');

    call = listCall(page, { search: tag, difficulty: 'hard', status: 'available' });
    await page.getByLabel('Status').selectOption('available');
    await call;
    expect(page.url()).toBe(app(`#/challenges?tab=global&status=available&difficulty=hard&q=${tag}`));
    await screenshot(page, 'filters-in-address');
  });

  it('keeps them on reload, with the controls set to match', async () => {
    const call = listCall(page, { scope: 'global', search: tag, difficulty: 'hard', status: 'available' });
    await page.reload();
    expect(await call).toEqual({ scope: 'global', search: tag, difficulty: 'hard', status: 'available', limit: '20' });
    await card(page, hard).waitFor();
    expect(await shown(page)).toEqual([hard]);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(tag);
    expect(await page.getByLabel('Difficulty').inputValue()).toBe('hard');
    expect(await page.getByLabel('Status').inputValue()).toBe('available');
  });

  it('comes back to the same list from a leaderboard, and "back" steps through the earlier filters', async () => {
    await card(page, hard).getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByTestId('leaderboard').waitFor();
    let call = listCall(page, { search: tag, difficulty: 'hard', status: 'available' });
    await page.goBack();
    await call;
    await card(page, hard).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('available');

    // One step back: the status filter is gone, difficulty and search stay.
    call = listCall(page, { search: tag, difficulty: 'hard', status: undefined });
    await page.goBack();
    await call;
    expect(page.url()).toBe(app(`#/challenges?tab=global&difficulty=hard&q=${tag}`));
    expect(await page.getByLabel('Status').inputValue()).toBe('');
    // Another: only the search; both cards again.
    call = listCall(page, { search: tag, difficulty: undefined, status: undefined });
    await page.goBack();
    await call;
    await card(page, easy).waitFor();
    expect(await shown(page)).toEqual([easy, hard].sort());
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe(tag);
  });

  it('carries the filters to another tab, and a shared link with unknown values shows the list unfiltered by them', async () => {
    let call = listCall(page, { scope: 'club', search: tag });
    await page.getByRole('link', { name: 'Club', exact: true }).click();
    await call;
    expect(page.url()).toBe(app(`#/challenges?tab=club&q=${tag}`));

    // A link someone shared, with a status the list does not know: signed in, the list shows it without.
    const other = await rig.newPage();
    call = listCall(other, { scope: 'global', search: tag });
    await signIn(
      other,
      rig.host.url,
      await tokenFor(unique('filters-link')),
      `#/challenges?tab=global&status=won&difficulty=hard&q=${tag}`,
    );
    expect(await call).toEqual({ scope: 'global', search: tag, difficulty: 'hard', limit: '20' });
    await card(other, hard).waitFor();
    expect(await other.getByLabel('Status').inputValue()).toBe('');
    await other.close();
  });
});
