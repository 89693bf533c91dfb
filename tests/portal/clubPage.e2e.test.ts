import type { Page } from 'playwright-core';
import { clubOverviewFunctions } from '../../functions/clubOverview';
import { clubFunctions } from '../../functions/clubs';
import { freshnessFunctions } from '../../functions/freshness';
import { overrideSettings } from '../../shared/config/settings';
import { createCostService } from '../../shared/costs/service';
import { getSql } from '../../shared/db/client';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { uniqueTag, uniqueVereinsId, type ClubFixture } from '../support/fixtures';
import { tokenFor } from '../support/tokens';
import { navLink, screenshot, signIn, startPortalRig, type PortalRig } from './browser';
import { breakClubPath, seedFailingDelivery, seedIncidentClub } from './clubFixtures';

const sql = () => getSql();

/** The club page and the overview's new lines in headless Chromium, over the real API and PostgreSQL. */
describe('portal: the club page', () => {
  useIngestTablesExclusively();
  let rig: PortalRig;
  let restoreSettings: (() => void) | undefined;
  let page: Page;
  let club: ClubFixture;
  const tag = uniqueTag();
  const reason = `MailboxFull: portal ${tag}`;

  beforeAll(async () => {
    restoreSettings = overrideSettings({ SVC_INGEST_STATUS_ENABLED: 'true' });
    rig = await startPortalRig({
      costService: () => createCostService({ provider: undefined }),
      extra: [...clubOverviewFunctions, ...clubFunctions, ...freshnessFunctions.filter((definition) => definition.kind === 'http')],
    });
    club = await seedIncidentClub(sql(), `AAA Club Page ${tag}`);
    // The push held until 2100: the queue per channel lists push.
    await seedFailingDelivery(sql(), club.clubId, tag, reason);
    page = await rig.newPage();
    await signIn(page, rig.host, await tokenFor(`club-page-admin-${tag}`, { roles: ['platform_admin'] }));
  }, 60_000);
  beforeEach(async () => {
    // useIngestTablesExclusively empties the ingest tables before each test.
    await breakClubPath(sql(), club.vereinsId ?? '', uniqueVereinsId());
  });
  afterAll(async () => {
    await rig?.close();
    restoreSettings?.();
  });

  const focusedText = () => page.evaluate<string>('document.activeElement ? document.activeElement.textContent || "" : ""');

  it('the overview names the quarantined club first and counts the failed delivery, and the keyboard opens the club page from there', async () => {
    await navLink(page, 'Overview').click();
    const first = page.getByTestId('problems').locator('li').first();
    await first.waitFor();
    expect(await first.getAttribute('data-kind')).toBe('ingest_quarantined');
    const delivery = page.getByTestId('overview-delivery');
    expect(await delivery.locator('li[data-channel="email"]').innerText()).toMatch(/^Email: \d+ sent, [1-9]\d* failed/);
    await screenshot(page, 'overview-failing');
    // Keyboard: focus the club's link and follow it with Enter.
    await first.getByRole('link', { name: club.name }).focus();
    expect(await focusedText()).toBe(club.name);
    await page.keyboard.press('Enter');
    const heading = page.getByTestId('club-name');
    await heading.waitFor();
    expect(await heading.innerText()).toContain(club.name);
    expect(page.url()).toContain(`#/clubs/${club.clubId}`);
  });

  it('shows the freshness reading, box signals, the ingest of its topics, plan, catalog and members', async () => {
    await page.goto(`${rig.host.url}/portal/#/clubs/${club.clubId}`);
    await page.getByTestId('club-name').waitFor();
    expect(await page.getByTestId('club-status').innerText()).toContain('stale');
    // One story: the quarantine of its path explains the missing data, and the freshness reading says so too.
    expect(await page.getByTestId('club-cause').getAttribute('data-cause')).toBe('quarantined');
    expect(await page.getByTestId('club-hint').innerText()).toContain('Its data is quarantined at ingest');
    const clubMaster = page.getByTestId('box-club-master');
    expect(await clubMaster.locator('[data-push]').getAttribute('data-push')).toBe('refused');
    expect(await clubMaster.innerText()).toContain('reported 1: 1 added');
    expect(await page.getByTestId('box-starterlists').locator('[data-push]').getAttribute('data-push')).toBe('ok');
    expect(await page.getByTestId('box-check').innerText()).toContain('hits found (box green)');
    // Incident rules 1 and 2: the quarantine of its path with the step, the values to note.
    const quarantine = page.getByTestId('club-quarantine');
    expect(await quarantine.innerText()).toContain('start no large replay while the scope error is open');
    expect(await quarantine.innerText()).toContain(`club.${club.vereinsId}.hits`);
    expect(await page.getByTestId('club-drift').innerText()).toContain(`club_scope_mismatch on club.${club.vereinsId}.hits`);
    expect(await page.getByTestId('club-rejects').locator('tbody tr').count()).toBe(5);
    expect(await page.getByTestId('club-dead-letters').locator('tbody tr').count()).toBe(1);
    expect(await page.getByTestId('catalog-boxes').innerText()).toContain('1');
    expect(await page.getByTestId('members-summary').innerText()).toBe('Memberships: 3, of them leaders: 1');
    expect(await page.getByTestId('members').locator('tbody tr').first().getAttribute('data-user')).toBe(club.leaders[0]);
    await screenshot(page, 'club-page');
  });

  it('edits the training plan with the keyboard: a refused plan names the field and changes nothing, a good one is stored', async () => {
    await page.goto(`${rig.host.url}/portal/#/clubs/${club.clubId}`);
    const edit = page.getByTestId('plan-edit');
    await edit.waitFor();
    await edit.focus();
    await page.keyboard.press('Enter');
    const form = page.getByTestId('plan-form');
    await form.waitFor();
    expect(await page.evaluate<string>('document.activeElement ? document.activeElement.id : ""')).toBe('plan-zone');
    // An end before its start without "ends next day": the server's 400 names the field.
    await form.locator('[name="end"]').first().fill('17:00');
    await form.getByRole('button', { name: 'Save plan' }).press('Enter');
    const errors = page.getByTestId('plan-errors');
    await errors.waitFor();
    expect(await errors.innerText()).toContain('evenings.0.end');
    const [unchanged] = await sql()<
      { evenings: { end: string }[] }[]
    >`select evenings from club_training_plan where club_id = ${club.clubId}`;
    expect(unchanged?.evenings[0]?.end).toBe('21:00');
    await form.locator('[name="end"]').first().fill('22:15');
    await form.getByRole('button', { name: 'Save plan' }).press('Enter');
    const saved = page.getByTestId('plan-saved');
    await saved.waitFor();
    expect(await page.evaluate<string>('document.activeElement ? document.activeElement.getAttribute("data-testid") || "" : ""')).toBe(
      'plan-saved',
    );
    expect(await page.getByTestId('plan').innerText()).toContain('22:15');
    const [stored] = await sql()<{ evenings: { end: string }[]; updated_by: string }[]>`
      select evenings, updated_by from club_training_plan where club_id = ${club.clubId}`;
    expect(stored?.evenings[0]?.end).toBe('22:15');
    expect(stored?.updated_by).toBe(`club-page-admin-${tag}`);
  });

  it('links the club from the diagnostics lists, which show the delivery queue and failing pushes', async () => {
    await navLink(page, 'Diagnostics').click();
    const outcomes = page.getByTestId('delivery-outcomes');
    await outcomes.waitFor();
    expect(await outcomes.locator('tr[data-outcome="failed"]').filter({ hasText: reason }).count()).toBe(1);
    expect(await page.getByTestId('delivery-queue').innerText()).toContain('Queue depth');
    await page.getByTestId('delivery-queue-channels').locator(':scope > summary').click();
    expect(await page.getByTestId('delivery-channels').locator('tr[data-channel="push"] th').innerText()).toBe('Push (apps and browsers)');
    await page.getByTestId('box-pushes-all').locator(':scope > summary').click();
    const row = page.getByTestId('box-pushes').locator(`tr[data-club="${club.clubId}"]`);
    expect(await row.locator('[data-push]').first().getAttribute('data-push')).toBe('refused');
    // Club numbers in the ingest records link to the club's page.
    await page.getByTestId('ingest-raw').locator(':scope > summary').click();
    const quarantined = page.getByTestId('ingest-fields').locator('tr[data-field="quarantineClubId"]');
    expect(await quarantined.getByRole('link', { name: club.name }).getAttribute('href')).toBe(`#/clubs/${club.clubId}`);
    await page.getByTestId('dead-letters').locator(':scope > summary').click();
    expect(await page.getByTestId('dead-letters').getByRole('link', { name: club.name }).count()).toBe(1);
    await screenshot(page, 'diagnostics-delivery');
    await row.getByRole('link', { name: club.name }).click();
    await page.getByTestId('club-name').waitFor();
    expect(page.url()).toContain(`#/clubs/${club.clubId}`);
  });

  it('answers an unknown club in words, and reads in German at a phone’s width without sideways scrolling', async () => {
    await page.goto(`${rig.host.url}/portal/#/clubs/no-such-club`);
    await page.getByRole('alert').filter({ hasText: 'There is no club with this id.' }).waitFor();
    await page.goto(`${rig.host.url}/portal/#/clubs/${club.clubId}`);
    await page.getByTestId('club-name').waitFor();
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Signale der Box' }).waitFor();
    expect(await page.getByTestId('club-hint').innerText()).toContain('Seine Daten stehen beim Ingest unter Quarantäne');
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBe(0);
    await screenshot(page, 'club-page-de-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Sprache').selectOption('en');
  });

  it('shows the page only to sessions holding diagnostics.read or clubs.manage', async () => {
    const other = await rig.newPage();
    await signIn(other, rig.host, await tokenFor(`club-page-ops-${tag}`, { roles: ['ops_admin'] }));
    await other.goto(`${rig.host.url}/portal/#/clubs/${club.clubId}`);
    await other.getByRole('alert').filter({ hasText: '“read diagnostics / manage clubs”' }).waitFor();
    expect(await other.getByTestId('club-name').count()).toBe(0);
    await other.close();
  });
});
