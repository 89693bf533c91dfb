import type { Page } from 'playwright-core';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { recordReportedConsent } from '../../shared/boxConnector/consentRepository';
import { clubOverviewFunctions } from '../../functions/clubOverview';
import { clubFunctions } from '../../functions/clubs';
import { syncKnownClubs } from '../../shared/clubMaster/knownClubSync';
import { overrideSettings } from '../../shared/config/settings';
import { getSql, type Sql } from '../../shared/db/client';
import { recordStarterlists } from '../../shared/freshness/starterlists';
import { clockAt, serviceFor, startFake } from '../costs/support';
import { addHit, createFreshnessClub } from '../freshness/fixtures';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { addEdgeToken, uniqueTag, uniqueVereinsId, type ClubFixture } from '../support/fixtures';
import { tokenFor } from '../support/tokens';
import { navLink, screenshot, signIn, startPortalRig, type PortalRig } from './browser';
import { breakClubPath } from './clubFixtures';

const sql = () => getSql();
const HOUR = 3_600_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The most common desktop screen: "about two screens" of it is the diagnostics page's budget in an incident. */
const FULL_HD = { width: 1920, height: 1080 };

/**
 * The club of the bad evening in issue 39: its data a month old, its box calling and pushing
 * (both channels ok) with its own check finding no hits ("box red"), its consent revoked, and
 * its hits path quarantined with a dead letter. The freshness hint alone would blame the box.
 */
async function seedBadEveningClub(db: Sql, name: string): Promise<ClubFixture> {
  const club = await createFreshnessClub(db, { name, leaders: 1, members: 2 });
  const vereinsId = club.vereinsId ?? '';
  await addHit(db, vereinsId, new Date(Date.now() - 30 * 24 * HOUR));
  await addEdgeToken(db, club.clubId, new Date());
  await syncKnownClubs(db, club.clubId, [{ vereinsId, name }]);
  await recordStarterlists(db, club.clubId, {
    starterlists: [{ id: 'LG-1', name: 'Luftgewehr', date: '2026-11-24', discipline: 'Luftgewehr 10 m', laneCount: 12, startersCount: 18 }],
    boxCheck: {
      checkedAt: new Date().toISOString(),
      eveningStart: new Date(Date.now() - 48 * HOUR).toISOString(),
      hitsAfterEvening: false,
    },
  });
  const [token] = await db<{ id: string }[]>`select id from edge_token where club_id = ${club.clubId} limit 1`;
  await db.begin((tx) =>
    recordReportedConsent(tx, {
      clubId: club.clubId,
      tokenId: token?.id ?? '',
      report: { state: 'REVOKED', changedAt: new Date().toISOString() },
    }),
  );
  return club;
}

/** Every email and push of the evening skipped for want of an address or a device: 6 and 6. */
async function skipEveryDelivery(db: Sql, tag: string): Promise<void> {
  for (const [channel, reason] of [
    ['email', 'no_email_address'],
    ['push', 'no_push_registration'],
  ] as const) {
    for (let i = 0; i < 6; i++) {
      const [outbox] = await db<{ id: string }[]>`
        insert into notification_outbox (user_id, channel, deliver_after, title, tone, status, attempts)
        values (${`evening-${tag}-${i}`}, ${channel}, now() - interval '1 hour', 'Training', 'info', 'cancelled', 1) returning id`;
      await db`
        insert into notification_delivery_log (outbox_id, user_id, channel, attempt, outcome, reason)
        values (${outbox?.id ?? ''}, ${`evening-${tag}-${i}`}, ${channel}, 1, 'skipped', ${reason})`;
    }
  }
}

/** The bad evening of issue 39 in headless Chromium at desktop and phone width, over the real API and PostgreSQL. */
describe('portal: the bad evening as a status board', () => {
  useIngestTablesExclusively();
  let rig: PortalRig;
  let restoreSettings: (() => void) | undefined;
  let page: Page;
  let club: ClubFixture;
  let costs: FakeCostProvider;
  const tag = uniqueTag();
  /** The fixture month's forecast is €266.20: a budget of €200 is overrun. */
  const BUDGET = 200;
  const LEADER_NAME = 'Lena Leitner';

  beforeAll(async () => {
    restoreSettings = overrideSettings({ SVC_INGEST_STATUS_ENABLED: 'true' });
    costs = await startFake();
    const costService = serviceFor(costs, clockAt('2026-11-21T10:00:00Z').now, {}, BUDGET);
    rig = await startPortalRig({
      costService: () => costService,
      extra: [...clubOverviewFunctions, ...clubFunctions],
    });
    club = await seedBadEveningClub(sql(), `AAA Bad Evening ${tag}`);
    await skipEveryDelivery(sql(), tag);
    await sql()`insert into person_profile (user_id, display_name) values (${club.leaders[0] ?? ''}, ${LEADER_NAME})`;
    page = await rig.newPage();
    await signIn(page, rig.host, await tokenFor(`bad-evening-admin-${tag}`, { roles: ['platform_admin'] }));
  }, 60_000);
  beforeEach(async () => {
    // useIngestTablesExclusively empties the ingest tables before each test.
    await breakClubPath(sql(), club.vereinsId ?? '', uniqueVereinsId());
    await page.setViewportSize(DESKTOP);
  });
  afterAll(async () => {
    await rig?.close();
    await costs?.close();
    restoreSettings?.();
  });

  const sidewaysScroll = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the overview names the quarantined club first and counts the skipped deliveries (%s)', async (width, size) => {
    await page.setViewportSize(size);
    await page.goto(`${rig.host.url}/portal/#/`);
    const problems = page.getByTestId('problems');
    await problems.waitFor();
    const first = problems.locator('li').first();
    expect(await first.getAttribute('data-kind')).toBe('ingest_quarantined');
    expect(await first.getAttribute('data-severity')).toBe('critical');
    const text = await first.innerText();
    expect(text).toMatch(/^Critical/i);
    expect(text).toContain(club.name);
    expect(text).toContain(`club.${club.vereinsId}.hits`);
    expect(text).toContain('docs/runbook-ingest.md › “Quarantined”');
    expect(await first.getByRole('link', { name: club.name }).getAttribute('href')).toBe(`#/clubs/${club.clubId}`);
    // The forecast above the budget is on the list too, in its place among the others.
    const overBudget = problems.locator('li[data-kind="costs_over_budget"]');
    await overBudget.waitFor();
    expect(await overBudget.getAttribute('data-severity')).toBe('medium');
    expect(await overBudget.innerText()).toContain('The forecast €266.20 is above the budget €200.00');
    expect(await overBudget.getByRole('link').last().getAttribute('href')).toBe('#/costs');
    expect(await page.getByTestId('overview-costs-budget').innerText()).toContain('The forecast exceeds the monthly budget by €66.20.');
    expect(await page.getByTestId('overview-costs-incomplete').innerText()).toBe('Includes still incomplete costs after 19 Nov.');
    // The worst is the most alarming to the eye too: the danger palette, nothing lower above it.
    const items = await problems.locator(':scope > li').all();
    const severities = await Promise.all(items.map((item) => item.getAttribute('data-severity')));
    const order = ['critical', 'high', 'medium', 'low'];
    expect(severities.map((severity) => order.indexOf(severity ?? ''))).toEqual(
      [...severities.map((severity) => order.indexOf(severity ?? ''))].sort((a, b) => a - b),
    );
    // Skipped deliveries are counted, per channel and reason, not "nothing failed".
    const skipped = (channel: string) => problems.locator(`li[data-kind="delivery_skipped"]`).filter({ hasText: channel });
    expect(await skipped('Email').innerText()).toMatch(/(?:[6-9]|\d{2,}) skipped in 24 h: no email address/);
    expect(await skipped('Push').innerText()).toMatch(/(?:[6-9]|\d{2,}) skipped in 24 h: no device registered/);
    const emailLine = await page.getByTestId('overview-delivery').locator('li[data-channel="email"]').innerText();
    expect(Number(/(\d+) skipped/.exec(emailLine)?.[1])).toBeGreaterThanOrEqual(6);
    expect(await page.getByTestId('updated').innerText()).toMatch(/^Updated /);
    expect(await sidewaysScroll()).toBe(0);
    await screenshot(page, `bad-evening-overview-${width}`);
  });

  it('refreshes the overview by itself and pauses while the tab is hidden', async () => {
    await page.goto(`${rig.host.url}/portal/#/`);
    await page.getByTestId('problems').waitFor();
    await page.evaluate(`(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    })()`);
    await page.getByTestId('updated').filter({ hasText: 'Updates paused while this tab is hidden.' }).waitFor();
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/diagnostics/summary')) asked += 1;
    });
    await page.evaluate(`(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    })()`);
    // Visible again: read at once, and the line says when.
    await page
      .getByTestId('updated')
      .filter({ hasText: /^Updated / })
      .waitFor();
    expect(asked).toBe(1);
  });

  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the club page tells one story: the quarantine, whatever the box check says (%s)', async (width, size) => {
    await page.setViewportSize(size);
    await page.goto(`${rig.host.url}/portal/#/clubs/${club.clubId}`);
    const cause = page.getByTestId('club-cause');
    await cause.waitFor();
    expect(await cause.getAttribute('data-cause')).toBe('quarantined');
    expect(await cause.innerText()).toContain('Its data is quarantined at ingest');
    // The freshness reading names the same cause: no "Box red" beside pushes that get through.
    const hint = await page.getByTestId('club-hint').innerText();
    expect(hint).toContain('Its data is quarantined at ingest');
    expect(hint).not.toMatch(/box red/i);
    expect(await page.getByTestId('story-pushes').innerText()).toBe('Box pushes\tClub master push: ok; Starter-list push: ok');
    expect(await page.getByTestId('box-club-master').locator('[data-push]').getAttribute('data-push')).toBe('ok');
    expect(await page.getByTestId('story-consent').innerText()).toContain('revoked: score data refused');
    expect(await page.getByTestId('story-quarantine').innerText()).toContain('its path is quarantined');
    expect(await page.getByTestId('story-dead-letters').innerText()).toContain('1 waiting for a replay');
    expect(await page.getByTestId('club-quarantine').count()).toBe(1);
    // People by name: the leader's profile name, the user id only as the small print beneath it.
    const leaderRow = page.getByTestId('members').locator(`tr[data-user="${club.leaders[0]}"]`);
    expect(await leaderRow.locator('th .person-name').innerText()).toBe(LEADER_NAME);
    expect(await leaderRow.locator('th code').innerText()).toBe(club.leaders[0]);
    expect(await page.getByTestId('members').locator('th .person-name').count()).toBe(1);
    expect(await page.getByTestId('members').innerText()).toContain('No name yet');
    // Words, not enum values, in the heading, the catalog status and the freshness reading.
    expect(await page.getByTestId('club-name').innerText()).toContain('in service');
    expect(await page.locator('#club-catalog ~ * .badge, section[aria-labelledby="club-catalog"] .badge').first().innerText()).toBe(
      'in service',
    );
    expect(await page.locator('main').innerText()).not.toMatch(/imported_only|— stale/);
    expect(await sidewaysScroll()).toBe(0);
    await screenshot(page, `bad-evening-club-${width}`);
  });

  it('the diagnostics page leads with problems and clubs, tells the same story, and fits two desktop screens', async () => {
    await navLink(page, 'Diagnostics').click();
    const problems = page.getByTestId('problems');
    await problems.waitFor();
    expect(await problems.locator('li').first().getAttribute('data-kind')).toBe('ingest_quarantined');
    // The five worst stay in sight; the less urgent rest (other files' clubs add to it) fold under their count.
    const total = await page.locator('li.problem').count();
    expect(await problems.locator(':scope > li').count()).toBe(Math.min(5, total));
    const folded = total - Math.min(5, total);
    expect(await page.getByTestId('problems-more').count()).toBe(folded > 0 ? 1 : 0);
    if (folded > 0) expect(await page.getByTestId('problems-more').locator('summary').innerText()).toBe(`${folded} more, less urgent`);
    // The club's row reads its cause from the same story as its page.
    await page.getByTestId('freshness-all').locator(':scope > summary').click();
    const row = page.getByTestId('freshness').locator(`tr[data-club="${club.vereinsId}"]`);
    expect(await row.locator('[data-cause]').getAttribute('data-cause')).toBe('quarantined');
    // Skipped deliveries per channel and reason.
    const outcomes = page.getByTestId('delivery-outcomes');
    const skippedEmail = outcomes.locator('tr[data-channel="email"][data-outcome="skipped"]').filter({ hasText: 'no email address' });
    expect(Number(await skippedEmail.locator('td.num').innerText())).toBeGreaterThanOrEqual(6);
    // The incident note names the quarantine's own fields.
    expect(await page.getByTestId('ingest-notes').locator('dt').allInnerTexts()).toEqual(
      expect.arrayContaining(['quarantineTopic', 'quarantineClubId', 'quarantineReason', 'quarantineDetail']),
    );
    await page.getByTestId('freshness-all').locator(':scope > summary').click();
    await screenshot(page, 'bad-evening-diagnostics-desktop');
    await page.setViewportSize(FULL_HD);
    const height = await page.evaluate<number>('document.documentElement.scrollHeight');
    // About two screens (the issue's measure; it was 4,471 px): other files' clubs in the same
    // database add their own failing pushes and deliveries to the page, hence the 5 % beyond two.
    expect(height).toBeLessThanOrEqual(2.1 * FULL_HD.height);
    await page.setViewportSize(PHONE);
    expect(await sidewaysScroll()).toBe(0);
    await screenshot(page, 'bad-evening-diagnostics-phone');
  });

  it('shows the overview and the club page in German with words for every state', async () => {
    await page.goto(`${rig.host.url}/portal/#/clubs/${club.clubId}`);
    await page.getByTestId('club-cause').waitFor();
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Was los ist' }).waitFor();
    expect(await page.getByTestId('club-cause').innerText()).toContain('Seine Daten stehen beim Ingest unter Quarantäne');
    expect(await page.getByTestId('club-name').innerText()).toContain('in Betrieb');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'bad-evening-club-de-phone');
    await page.getByRole('link', { name: 'Übersicht', exact: true }).click();
    const first = page.getByTestId('problems').locator('li').first();
    await first.waitFor();
    expect(await first.innerText()).toMatch(/^Kritisch/i);
    expect(await first.innerText()).toContain('Ingest in Quarantäne');
    const overBudget = page.getByTestId('problems').locator('li[data-kind="costs_over_budget"]');
    await overBudget.waitFor();
    expect(await overBudget.innerText()).toMatch(/Die Prognose 266,20\s€ liegt über dem Budget 200,00\s€/);
    await screenshot(page, 'bad-evening-overview-de-phone');
    await page.getByLabel('Sprache').selectOption('en');
  });
});
