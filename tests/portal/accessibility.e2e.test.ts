import type { Page } from 'playwright-core';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { tokenFor } from '../support/tokens';
import { clockAt, serviceFor, startFake } from '../costs/support';
import { navLink, screenshot, startPortalRig, type PortalRig } from './browser';
import { tabTo as tabToName } from '../support/keyboard';

/** The portal used with the keyboard only, in German, and at a phone's width. */
describe('portal: keyboard, language and phone width', () => {
  let fake: FakeCostProvider;
  let rig: PortalRig;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    fake = await startFake();
    const service = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now);
    rig = await startPortalRig({ costService: () => service });
    page = await rig.newPage();
    token = await tokenFor('keyboard-admin', { roles: ['platform_admin'] });
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
    await fake?.close();
  });

  const focused = () => page.locator(':focus');
  /** Tab to `name` (at most `limit` presses; the page may wrap around). */
  const tabTo = (name: string | RegExp, limit = 25) => tabToName(page, name, limit);
  /** The diagnostics page's club catalog has answered: its table, or the line saying no club matches. */
  const catalogLoaded = async () => {
    // The catalog is closed until opened; opening it reads it.
    const section = page.getByTestId('catalog-section');
    if ((await section.getAttribute('open')) === null) await section.locator(':scope > summary').click();
    await page.getByTestId('catalog').or(page.getByText('No clubs match.')).first().waitFor();
  };
  /** The focus ring of the focused element: a real outline. */
  async function focusRing(): Promise<{ style: string; width: number }> {
    return focused().evaluate((element) => {
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } }
      ).getComputedStyle(element);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
  }

  it('signs in, navigates and reads the chart with the keyboard alone, the focus always visible', async () => {
    await page.goto(`${rig.host.url}/portal/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    await page.keyboard.press('Tab');
    expect(await focused().innerText()).toBe('Skip to content');
    await tabTo('Bearer token');
    await page.keyboard.insertText(token);
    await tabTo('Sign in');
    expect((await focusRing()).style).not.toBe('none');
    await page.keyboard.press('Enter');
    await navLink(page, 'Costs').waitFor();
    expect(await focused().innerText()).toBe('Overview');
    await screenshot(page, 'overview');

    await tabTo('Costs');
    const ring = await focusRing();
    expect(ring.style).toBe('solid');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Cloud costs' }).waitFor();
    expect(await focused().innerText()).toBe('Cloud costs');

    // The chart comes with the cost figures, after the heading: wait for it before tabbing to it.
    await page.getByRole('img', { name: /^Line chart of the daily costs/ }).waitFor();
    await tabTo(/^Line chart of the daily costs/, 40);
    // The newest complete day: today (21st) and yesterday lag and are left out.
    await page.getByTestId('chart-readout').filter({ hasText: '19 Nov 2026:' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('chart-readout').filter({ hasText: '18 Nov 2026:' }).waitFor();
    await page.keyboard.press('Home');
    await page.getByTestId('chart-readout').filter({ hasText: '23 Oct 2026:' }).waitFor();

    await tabTo('Download CSV (30 days)', 40);
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^costs-.*\.csv$/);

    await tabTo(/^Notifications: \d+ unread$/, 60);
    await page.keyboard.press('Enter');
    await page.getByTestId('bell-panel').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('bell-panel').isHidden()).toBe(true);
    expect(await focused().getAttribute('data-testid')).toBe('bell');
  });

  it('every form control and button has an accessible name', async () => {
    await navLink(page, 'Diagnostics').click();
    await page.getByTestId('ingest-raw').or(page.getByRole('alert')).first().waitFor();
    // The club catalog (its filter, table and adopt buttons) loads on its own, after the summary.
    await catalogLoaded();
    const unnamed = await page.evaluate(`[...document.querySelectorAll('input, select, textarea, button, a[href], [tabindex="0"]')]
      .filter((element) => !(element.getAttribute('aria-label') || (element.labels && element.labels.length) || element.textContent.trim()))
      .map((element) => element.outerHTML.slice(0, 80))`);
    expect(unnamed).toEqual([]);
  });

  it('switches to German: labels, number format and the page language', async () => {
    await navLink(page, 'Costs').click();
    await page.getByTestId('tile-mtd').waitFor();
    await page.getByLabel('Language').selectOption('de');
    const german = page.getByRole('navigation', { name: 'Hauptnavigation' });
    await german.getByRole('link', { name: 'Kosten' }).waitFor();
    expect(await german.getByRole('link').allInnerTexts()).toEqual(['Übersicht', 'Kosten', 'Diagnose']);
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    expect(await page.getByTestId('tile-mtd').innerText()).toContain('Monat bisher');
    expect(await page.getByTestId('tile-mtd').innerText()).toMatch(/251,20\s€/);
    expect(await page.getByRole('button', { name: 'CSV herunterladen (30 Tage)' }).count()).toBe(1);
    expect(await page.getByTestId('tile-mtd').innerText()).toMatch(/ggü\. 1\. Okt\.? – 21\. Okt\.?: /);
    expect(await page.getByTestId('resource-groups').locator('thead th').nth(2).innerText()).toMatch(/^Dieselben Tage im letzten Monat/);
    await screenshot(page, 'costs-de');
    await german.getByRole('link', { name: 'Diagnose' }).click();
    await page.getByTestId('ingest-state').waitFor();
    expect(await page.getByTestId('ingest-state').innerText()).toMatch(/^Zustand: \S/);
    await page.getByTestId('ingest-raw').locator(':scope > summary').click();
    expect(await page.getByTestId('ingest-fields').getByRole('heading', { level: 3 }).first().innerText()).toBe('Runner');
    await screenshot(page, 'diagnostics-de');
    await page.getByLabel('Sprache').selectOption('en');
    await navLink(page, 'Costs').waitFor();
  });

  it('fits a phone: no sideways scrolling of the page, tables scroll in their own boxes', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name, loaded] of [
      ['costs', 'costs-phone', () => page.getByTestId('tile-mtd').waitFor()],
      // The catalog's section is drawn at once; the summary's tables and the catalog's come with their answers.
      ['diagnostics', 'diagnostics-phone', () => Promise.all([page.getByTestId('ingest-raw').waitFor(), catalogLoaded()])],
    ] as const) {
      await page.goto(`${rig.host.url}/portal/#/${path}`);
      await page.locator('h1').waitFor();
      await page.locator('section.card').first().waitFor();
      await loaded();
      const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect([path, overflow]).toEqual([path, 0]);
      await screenshot(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
