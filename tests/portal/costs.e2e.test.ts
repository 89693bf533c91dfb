import { text } from 'node:stream/consumers';
import type { Locator, Page } from 'playwright-core';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { createCostService, type CostService } from '../../shared/costs/service';
import { waitInPage } from '../support/chromium';
import { tokenFor } from '../support/tokens';
import { SECRET, clockAt, serviceFor, startFake } from '../costs/support';
import { navLink, screenshot, signIn, startPortalRig, type PortalRig } from './browser';

/** How many points a polyline of the chart has. */
const pointCount = async (polyline: Locator) => ((await polyline.getAttribute('points')) ?? '').trim().split(/\s+/).filter(Boolean).length;

/**
 * The cost dashboard in headless Chromium against the local host, the production cost service
 * and the fake provider serving tests/fixtures/cost-management/dataset.json (the figures are
 * worked out in tests/costs/dashboard.e2e.test.ts).
 */
describe('portal: cost dashboard in a browser', () => {
  let fake: FakeCostProvider;
  let rig: PortalRig;
  let service: CostService;
  let page: Page;
  const clock = clockAt('2026-11-21T10:00:00Z');

  beforeAll(async () => {
    fake = await startFake();
    service = serviceFor(fake, clock.now);
    rig = await startPortalRig({ costService: () => service });
    page = await rig.newPage();
    await signIn(page, rig.host, await tokenFor('billing-1', { roles: ['billing_admin'] }));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
    await fake?.close();
  });

  it('offers the costs entry to a costs.read session and shows the fixture figures in the tiles', async () => {
    await navLink(page, 'Costs').click();
    await page.getByTestId('tile-mtd').waitFor();
    expect(await page.getByTestId('tile-mtd').innerText()).toContain('€251.20');
    expect(await page.getByTestId('tile-forecast').innerText()).toContain('€266.20');
    expect(await page.getByTestId('tile-last-month').innerText()).toContain('€263.83');
    expect(await page.getByTestId('tile-delta').innerText()).toContain('+€2.37 (+0.9%)');
    expect(await page.getByTestId('costs-as-of').innerText()).toContain('21 Nov 2026, 10:00');
    const groups = await page.getByTestId('resource-groups').locator('tbody tr').allInnerTexts();
    // Like with like: month to date against 1–21 Oct, the whole October only for reference.
    expect(await page.getByTestId('tile-mtd').innerText()).toContain('vs. 1 Oct – 21 Oct: €192.97, +€58.24 (+30.2%)');
    // Cost data lags: the month to date says which of its days are still growing.
    expect(await page.getByTestId('tile-mtd').innerText()).toContain('Includes still incomplete costs after 19 Nov.');
    const headers = await page.getByTestId('resource-groups').locator('thead th').allInnerTexts();
    expect(headers).toEqual(['Resource group', 'Month to date', 'Same days last month (1 Oct – 21 Oct)', 'Difference', 'Whole last month']);
    expect(groups[0]).toMatch(/ict_stratandplan_goldsprova_prod\s+€218.70\s+€173.42\s+\+€45.28 \(\+26.1%\)\s+€173.42/);
    expect(groups[2]).toMatch(/ScreenSharingTest-peer\s+€2.10\s+€19.55\s+[-−]€17.44 \([-−]89.2%\)\s+€19.62/);
    expect(groups).toHaveLength(4);
    const services = await page.getByTestId('services').locator('tbody tr').allInnerTexts();
    expect(services[0]).toMatch(/Virtual Machines\s+€218.70\s+87.1%/);
    expect(services.map((row) => row.split('\t')[0])).toEqual([
      'Virtual Machines',
      'Bandwidth',
      'Azure App Service',
      'Storage',
      'Key Vault',
    ]);
    await screenshot(page, 'costs');
  });

  it('draws the complete days of the 30-day trend, leaves out today and yesterday and says so', async () => {
    const chart = page.locator('svg.trend-chart');
    // 23 Oct .. 19 Nov: the 20th and 21st (today) lag and would read as a drop to €0.
    expect(await chart.locator('circle.point').count()).toBe(28);
    expect(await chart.locator('circle.point').first().getAttribute('data-date')).toBe('2026-10-23');
    expect(await chart.locator('.axis-y text').count()).toBeGreaterThanOrEqual(3);
    expect(await chart.locator('.axis-x text').count()).toBeGreaterThanOrEqual(4);
    // The title counts the days drawn.
    await page.getByRole('heading', { name: 'Daily costs, 23 Oct – 19 Nov 2026 (28 complete days)' }).waitFor();
    expect(await page.getByTestId('trend-incomplete').innerText()).toBe(
      'The chart ends on 19 Nov 2026: the newest 2 days are left out while their costs are incomplete (cost data lags 8–24 hours).',
    );
    const last = chart.locator('circle.point').last();
    expect(await last.getAttribute('data-date')).toBe('2026-11-19');
    await last.hover();
    const expected = `19 Nov 2026: €${Number(await last.getAttribute('data-cost')).toFixed(2)}`;
    await page.getByTestId('chart-readout').filter({ hasText: expected }).waitFor();
  });

  it('draws the accumulated month with the forecast to month end, the budget and October, on a desktop and a phone', async () => {
    service = serviceFor(fake, clock.now, {}, 260);
    for (const [width, height, name] of [
      [1280, 900, 'costs-accumulated-desktop'],
      [390, 844, 'costs-accumulated-phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await navLink(page, 'Overview').click();
      await navLink(page, 'Costs').click();
      const chart = page.locator('svg.acc-chart');
      await chart.waitFor();
      await page.getByRole('heading', { name: 'Accumulated costs, 1 Nov – 30 Nov 2026 (30 days)' }).waitFor();
      // 1st to 19th complete and solid; the 20th and today (21st) dashed and marked incomplete.
      expect(await pointCount(chart.locator('polyline.acc-actual'))).toBe(19);
      expect(await pointCount(chart.locator('polyline.acc-incomplete'))).toBe(3);
      const incomplete = chart.locator('circle.acc-incomplete-point');
      expect([await incomplete.first().getAttribute('data-date'), await incomplete.last().getAttribute('data-date')]).toEqual([
        '2026-11-20',
        '2026-11-21',
      ]);
      expect(await incomplete.count()).toBe(2);
      // The forecast runs on to the 30th, the last day of the plot; October is drawn for its first 30 days.
      const forecastEnd = (await chart.locator('polyline.acc-forecast').getAttribute('points'))?.split(' ').at(-1)?.split(',')[0];
      const lastTick = await chart.locator('.axis-x line').last().getAttribute('x1');
      expect(forecastEnd).toBe(lastTick);
      expect(await pointCount(chart.locator('polyline.acc-last-month'))).toBe(30);
      expect(await chart.locator('line.acc-budget').count()).toBe(1);
      const legend = await page.getByTestId('acc-legend').innerText();
      expect(legend).toContain('Actual so far: €251.20');
      expect(legend).toContain('Dashed: the newest 2 days after 19 Nov 2026, still incomplete');
      expect(legend).toContain('Forecast to 30 Nov: €266.20');
      expect(legend).toContain('Monthly budget: €260.00');
      expect(legend).toContain('October 2026 for comparison: €263.83');
      expect(await page.getByTestId('acc-over-budget').innerText()).toBe('The forecast exceeds the monthly budget by €6.20.');
      // Readable on a phone: every chart label at least 11 px as drawn, and the charts fit the screen.
      const labelSizes = await page.evaluate<number[][]>(`[...document.querySelectorAll('svg.trend-chart')].map((svg) => {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].map((text) => parseFloat(getComputedStyle(text).fontSize) * scale);
      })`);
      expect(labelSizes).toHaveLength(2);
      for (const sizes of labelSizes) {
        expect(sizes.length).toBeGreaterThan(0);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
      }
      // No label is cut off at a chart's edge.
      const cutOff = await page.evaluate<string[]>(`[...document.querySelectorAll('svg.trend-chart')].flatMap((svg) => {
        const frame = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')]
          .filter((text) => { const box = text.getBoundingClientRect(); return box.left < frame.left - 0.5 || box.right > frame.right + 0.5; })
          .map((text) => text.textContent);
      })`);
      expect(cutOff).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
      await screenshot(page, name);
    }
    // Back at a desktop width, both charts are drawn again at the width they now get.
    await page.setViewportSize({ width: 1280, height: 900 });
    await waitInPage(page, `[...document.querySelectorAll('svg.trend-chart')].every((svg) => svg.viewBox.baseVal.width > 600)`);
  });

  it('splits the running total by service or by resource group, and speaks German', async () => {
    const chart = page.locator('svg.acc-chart');
    expect(await chart.getAttribute('data-grouping')).toBe('service');
    expect((await page.getByTestId('acc-groups').locator('li').allInnerTexts())[0]).toBe('Virtual Machines: €218.70');
    expect(await chart.locator('polygon.acc-area').count()).toBe(5);
    await page.getByRole('button', { name: 'By resource group' }).click();
    await page.locator('svg.acc-chart[data-grouping="resourceGroup"]').waitFor();
    expect(await page.getByRole('button', { name: 'By resource group' }).getAttribute('aria-pressed')).toBe('true');
    expect((await page.getByTestId('acc-groups').locator('li').allInnerTexts())[0]).toBe('ict_stratandplan_goldsprova_prod: €218.70');
    expect(await page.locator('svg.acc-chart polygon.acc-area').count()).toBe(4);
    await screenshot(page, 'costs-accumulated-by-resource-group');

    // Switching the language draws the page again in German.
    await page.getByLabel('Language').selectOption('de');
    try {
      await page.getByRole('heading', { name: /^Kumulierte Kosten, 1\. Nov\.? – 30\. Nov\.? 2026 \(30 Tage\)$/ }).waitFor();
      const legend = await page.getByTestId('acc-legend').innerText();
      // German amounts put a no-break space before the euro sign.
      expect(legend).toMatch(/Monatsbudget: 260,00\s€/);
      expect(legend).toMatch(/Oktober 2026 zum Vergleich: 263,83\s€/);
      expect(await page.getByTestId('tile-mtd').innerText()).toMatch(/Die Kosten nach dem 19\. Nov\.? sind noch unvollständig\./);
      await page.getByRole('button', { name: 'Nach Ressourcengruppe' }).waitFor();
      await screenshot(page, 'costs-accumulated-de');
    } finally {
      await page.getByLabel('Sprache').selectOption('en');
    }
    service = serviceFor(fake, clock.now);
  });

  it('the overview shows the month to date against the forecast, last month and the same days of last month', async () => {
    await navLink(page, 'Overview').click();
    const costs = page.getByTestId('overview-costs');
    await costs.waitFor();
    expect(await costs.innerText()).toBe(
      'Month to date €251.20 (same days last month €192.97); forecast €266.20 against last month €263.83. — costs',
    );
    // The month to date counts the lagging days too, and says so; without a budget the line says none is set.
    expect(await page.getByTestId('overview-costs-incomplete').innerText()).toBe('Includes still incomplete costs after 19 Nov.');
    expect(await page.getByTestId('overview-costs-budget').innerText()).toBe('No monthly budget is set.');
    // billing_admin reads no diagnostics: no ingest block, no call for it.
    expect(await page.getByTestId('overview-ingest').count()).toBe(0);
    await costs.getByRole('link', { name: 'costs' }).click();
    await page.getByTestId('tile-mtd').waitFor();
  });

  it('the overview shows the budget and warns when the forecast is above it', async () => {
    service = serviceFor(fake, clock.now, {}, 260);
    try {
      await navLink(page, 'Overview').click();
      const budget = page.getByTestId('overview-costs-budget');
      await budget.waitFor();
      expect(await budget.innerText()).toBe('Monthly budget: €260.00. The forecast exceeds the monthly budget by €6.20.');
      expect(await budget.getAttribute('class')).toContain('alert-warning');
      // billing_admin reads no diagnostics: the warning is here, there is no problem list to add it to.
      expect(await page.getByTestId('problems').count()).toBe(0);
      await page.getByLabel('Language').selectOption('de');
      try {
        await page.getByTestId('overview-costs-budget').filter({ hasText: 'Monatsbudget' }).waitFor();
        expect(await page.getByTestId('overview-costs-budget').innerText()).toMatch(
          /^Monatsbudget: 260,00\s€\. Die Prognose übersteigt das Monatsbudget um 6,20\s€\.$/,
        );
        expect(await page.getByTestId('overview-costs-incomplete').innerText()).toMatch(/19\. Nov\.? sind noch unvollständig\./);
      } finally {
        await page.getByLabel('Sprache').selectOption('en');
      }
    } finally {
      service = serviceFor(fake, clock.now);
    }
    // The tests after this one start on the costs page.
    await navLink(page, 'Costs').click();
    await page.getByTestId('tile-mtd').waitFor();
  });

  it('downloads the CSV with the bearer token in the header, never in the URL', async () => {
    const requests: { url: string; authorization?: string }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('export.csv')) requests.push({ url: request.url(), authorization: request.headers()['authorization'] });
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV (30 days)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('costs-2026-10-23-to-2026-11-21.csv');
    // Read through the connection: the file lies with the run's browser, not this worker.
    const csv = await text(await download.createReadStream());
    expect(csv.split('\r\n')[0]).toBe('date,resourceGroup,service,cost,currency');
    expect(csv.split('\r\n').length).toBeGreaterThan(2);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(`${rig.host.url}/api/admin/v1/costs/export.csv?days=30`);
    expect(requests[0]?.authorization).toMatch(/^Bearer ey/);
  });

  it('shows the operator message of a provider failure', async () => {
    fake.fail('token', 'expired_secret');
    service = serviceFor(fake, clock.now);
    const problem = (await (
      await fetch(`${rig.host.url}/api/admin/v1/costs/summary`, {
        headers: { authorization: `Bearer ${await tokenFor('billing-1', { roles: ['billing_admin'] })}` },
      })
    ).json()) as { detail: string; code: string };
    expect(problem.code).toBe('secret_expired');
    service = serviceFor(fake, clock.now);
    await navLink(page, 'Overview').click();
    await navLink(page, 'Costs').click();
    const alert = page.getByRole('alert').filter({ hasText: problem.detail });
    await alert.waitFor();
    expect(await alert.innerText()).toContain('code secret_expired');
    // One message for the three refused calls (their answers come in one after another, and the
    // page draws the message again for each), and the page still offers the rest of the portal.
    await waitInPage(page, "document.querySelectorAll('[role=alert]').length === 1");
    await page.waitForTimeout(300);
    expect(await page.getByRole('alert').count()).toBe(1);
    await screenshot(page, 'costs-provider-error');
    // The operator finds the failure in the log under its code, without the client secret.
    const failures = rig.functionLogs.filter(({ level, line }) => level === 'error' && line.includes('"failure":"secret_expired"'));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.map(({ line }) => line).join('\n')).not.toContain(SECRET);
    fake.clearFailures();
  });

  it('without credentials shows the unconfigured message and nothing else breaks', async () => {
    service = createCostService({ provider: undefined });
    await navLink(page, 'Overview').click();
    await navLink(page, 'Costs').click();
    const message = page.getByTestId('costs-unconfigured');
    await message.waitFor();
    expect(await message.innerText()).toContain('Cost monitoring is not configured');
    expect(await page.locator('svg.trend-chart').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'costs-unconfigured');
    await navLink(page, 'Overview').click();
    expect(await page.getByTestId('session-sub').innerText()).toBe('billing-1');
    // Roles and capabilities in words, not as the token spells them.
    expect(await page.getByTestId('session-roles').innerText()).toBe('billing');
    expect(await page.getByTestId('session-capabilities').innerText()).toBe('read costs');
    await page.getByLabel('Language').selectOption('de');
    try {
      await page.getByTestId('session-roles').filter({ hasText: 'Abrechnung' }).waitFor();
      expect(await page.getByTestId('session-capabilities').innerText()).toBe('Kosten lesen');
    } finally {
      await page.getByLabel('Sprache').selectOption('en');
    }
  });

  it('gives support_admin no costs entry, and the page itself says why', async () => {
    const support = await rig.newPage();
    await signIn(support, rig.host, await tokenFor('support-1', { roles: ['support_admin'] }));
    const nav = support.getByRole('navigation', { name: 'Main navigation' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Overview']);
    await support.goto(`${rig.host.url}/portal/#/costs`);
    await support.getByRole('alert').filter({ hasText: 'This page needs the permission “read costs”' }).waitFor();
    expect(await support.getByRole('alert').innerText()).not.toContain('costs.read');
    await screenshot(support, 'support-admin');
    await support.close();
  });
});
