import type { Page } from 'playwright-core';
import { getSql } from '../../shared/db/client';
import { notify } from '../../shared/notifications/notify';
import { addMember, createClub, makeChallenge, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { card, screenshot, useAppRig } from './support';
import { tabTo as tabToName } from '../support/keyboard';

const SCREENS = [
  ['challenges?tab=global', 'challenges'],
  ['challenges?tab=club', 'challenges-club'],
  ['profile', 'profile'],
  ['inbox', 'inbox'],
  ['settings', 'settings'],
  ['shooter', 'shooter'],
] as const;

/** The member app with the keyboard alone, in German, and at a phone's width. */
describe('member app: keyboard, German and phone width', () => {
  const rig = useAppRig();
  const member = unique('a11y-member');
  const tag = unique('a11y');
  let challengeId: string;
  let page: Page;

  const focused = () => page.locator(':focus');
  /** Tab to `name` (at most `limit` presses). */
  const tabTo = (name: string | RegExp, limit = 40) => tabToName(page, name, limit);
  async function focusRing(): Promise<{ style: string; width: number }> {
    return page.evaluate(`(() => {
      const e = document.activeElement;
      // A switch draws its ring on the track beside the (invisible) checkbox.
      const target = e.getAttribute('role') === 'switch' ? e.nextElementSibling : e;
      const style = getComputedStyle(target);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    })()`);
  }

  beforeAll(async () => {
    const club = await createClub();
    await addMember(club.clubId, member);
    challengeId = (await makeChallenge({ scope: 'club', clubId: club.clubId, title: `Keyboard ${tag}`, description: 'Sechs Schüsse' })).id;
    await getSql().begin((tx) =>
      notify(tx, { userId: member, title: 'Welcome', tone: 'info', kind: 'challenge', source: 'test', channels: [] }),
    );
    page = await rig.newPage();
  });

  it('signs in, joins a challenge, shares it and opens its leaderboard with the keyboard alone, the focus always visible', async () => {
    await page.goto(`${rig.host.url}/app/#/challenges?tab=club`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await focused().innerText()).toBe('Skip to content');
    await tabTo('Bearer token');
    await page.keyboard.insertText(await tokenFor(member));
    await tabTo('Sign in');
    expect((await focusRing()).style).toBe('solid');
    await page.keyboard.press('Enter');
    await card(page, challengeId).waitFor();

    await tabTo('Join');
    const ring = await focusRing();
    expect([ring.style, ring.width >= 2]).toEqual(['solid', true]);
    await page.keyboard.press('Enter');
    // The switches appear with the join's answer: wait for it before tabbing on.
    await card(page, challengeId).getByRole('button', { name: 'Leave' }).waitFor();
    await tabTo('Share within my club');
    expect((await focusRing()).style).toBe('solid');
    await page.keyboard.press('Space');
    await card(page, challengeId).locator('input[data-testid="share-club"]:checked').waitFor();
    // Back through the card's actions: Leave, then Leaderboard.
    await page.keyboard.press('Shift+Tab');
    expect(await focused().innerText()).toBe('Leave');
    await page.keyboard.press('Shift+Tab');
    expect(await focused().innerText()).toBe('Leaderboard');
    await page.keyboard.press('Enter');
    await page.getByTestId('leaderboard').waitFor();
    // The board's heading names its challenge and takes the focus.
    expect(await focused().innerText()).toBe(`Keyboard ${tag}`);
    await screenshot(page, 'keyboard-leaderboard');

    await tabTo(/^Notifications: 1 unread$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('inbox-list').waitFor();
    expect(await focused().innerText()).toBe('Inbox');
  });

  it('names every control of every screen', async () => {
    for (const [hash] of SCREENS) {
      await page.goto(`${rig.host.url}/app/#/${hash}`);
      await page.locator('main h1').waitFor();
      await page.getByTestId('loading').first().waitFor({ state: 'detached' });
      const unnamed = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button, a[href]')]
        .filter((element) => !(element.getAttribute('aria-label') || (element.labels && element.labels.length) || element.textContent.trim()))
        .map((element) => element.outerHTML.slice(0, 80))`);
      expect([hash, unnamed]).toEqual([hash, []]);
    }
  });

  it('switches to German: labels, the page language and dates', async () => {
    await page.goto(`${rig.host.url}/app/#/challenges?tab=club`);
    await page.getByLabel('Language').selectOption('de');
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await nav.waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual([
      'Challenges',
      'Profil',
      'Vereine',
      'Postfach',
      'Einstellungen',
      'Schützendaten',
    ]);
    // The page language is set after the labels are drawn, and the list loads on its own.
    await page.locator('html[lang="de"]').waitFor({ state: 'attached' });
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    const german = card(page, challengeId);
    await german.waitFor();
    expect(await german.getByRole('button', { name: 'Verlassen' }).count()).toBe(1);
    expect(await german.getByTestId('goal').innerText()).toBe('Ziel: 10 Schüsse');
    expect(await german.getByTestId('progress').innerText()).toMatch(/bis \d{1,2}\. \S+ \d{4}|Beigetreten/);
    await screenshot(page, 'challenges-de');
    for (const [hash, name] of SCREENS.slice(2)) {
      await page.goto(`${rig.host.url}/app/#/${hash}`);
      await page.locator('main h1').waitFor();
      await page.getByTestId('loading').first().waitFor({ state: 'detached' });
      await screenshot(page, `${name}-de`);
    }
    // The choice is remembered for the next visit.
    await page.reload();
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).waitFor();
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
  });

  it('opens in German when the browser prefers it', async () => {
    const german = await rig.newPage({ locale: 'de-DE' });
    await german.goto(`${rig.host.url}/app/`);
    await german.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect(await german.locator('html').getAttribute('lang')).toBe('de');
    await screenshot(german, 'sign-in-de');
    await german.close();
  });

  it('fits a phone: no sideways scrolling on any screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [hash, name] of [...SCREENS, [`leaderboard/${challengeId}?board=club`, 'leaderboard'] as const]) {
      await page.goto(`${rig.host.url}/app/#/${hash}`);
      await page.locator('main h1').waitFor();
      await page.getByTestId('loading').first().waitFor({ state: 'detached' });
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect([hash, overflow]).toEqual([hash, 0]);
      await screenshot(page, `${name}-phone`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
