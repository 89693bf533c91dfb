import type { Page } from 'playwright-core';
import { syncKnownClubs } from '../../shared/clubMaster/knownClubSync';
import { overrideSettings } from '../../shared/config/settings';
import { createCostService } from '../../shared/costs/service';
import { getSql } from '../../shared/db/client';
import { applyIngestBatch } from '../../shared/ingest/apply';
import { writeBackfillStatus } from '../../shared/ingest/backfillStatusRepository';
import { recordDeadLetters } from '../../shared/ingest/deadLetterRepository';
import { runHeartbeat } from '../../shared/ingest/eventRunner';
import { notify } from '../../shared/notifications/notify';
import { createServiceClub, uniqueTag } from '../support/fixtures';
import { addHit, createFreshnessClub } from '../freshness/fixtures';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { event, hitBody, incoming, uniqueClub, TEST_THRESHOLDS } from '../ingest/fixtures';
import { tokenFor } from '../support/tokens';
import { navLink, screenshot, signIn, startPortalRig, type PortalRig } from './browser';

const sql = () => getSql();
const THRESHOLDS = TEST_THRESHOLDS;

/** Five contract rejects on one producer path, now: the path is quarantined. */
async function quarantineOnePath(): Promise<string> {
  const club = uniqueClub();
  const options = {
    runner: { id: 'event:portal-e2e', kind: 'event' as const },
    statusEnabled: true,
    thresholds: THRESHOLDS,
    rejectLogMax: 1000,
    now: () => new Date(),
  };
  await runHeartbeat(sql(), options);
  const bad = (lsn: number) => event(hitBody({ id: lsn, clubId: club, lsn }), { topic: `club.${club}.hits`, clubId: '1' });
  await applyIngestBatch(sql(), incoming([bad(1), bad(2), bad(3), bad(4), bad(5)]), options);
  return club;
}

/** Diagnostics and the bell in headless Chromium, over the real services and PostgreSQL. */
describe('portal: diagnostics and notifications in a browser', () => {
  useIngestTablesExclusively();
  let rig: PortalRig;
  let restoreSettings: (() => void) | undefined;
  let page: Page;
  const admin = `portal-admin-${uniqueTag()}`;
  const tag = uniqueTag();
  let quarantinedClub: string;
  let staleClub: { clubId: string; name: string; vereinsId: string | null };

  beforeAll(async () => {
    restoreSettings = overrideSettings({ SVC_INGEST_STATUS_ENABLED: 'true' });
    rig = await startPortalRig({ costService: () => createCostService({ provider: undefined }) });
    // A club whose last data arrived weeks ago, whose box never called: stale, box offline. The
    // name sorts it first among the stale clubs of the whole run (the page shows 200, worst first).
    staleClub = await createFreshnessClub(sql(), { name: `AAA Portal Stale ${tag}` });
    await addHit(sql(), staleClub.vereinsId ?? '', new Date(Date.now() - 30 * 86_400_000));
    // Clubs that never delivered (unknown): more than one page of the freshness table.
    for (let i = 0; i < 51; i++) await createFreshnessClub(sql(), { name: `Portal Unknown ${tag} ${i}` });
    // A club number a box reports that is no service club yet, with score data: adoptable.
    const box = await createServiceClub(sql(), { name: `Portal Box ${tag}` });
    await syncKnownClubs(sql(), box, [{ vereinsId: `${tag}-7`, name: `Portal Imported ${tag}` }]);
    await sql()`insert into club_data_hit (source_club_id) values (${`${tag}-7`})`;
    for (const title of ['Ingest quarantined', 'Club stale', 'Weekly report']) {
      await sql().begin((tx) =>
        notify(tx, { userId: admin, title, body: `${title} body`, tone: 'warning', kind: 'report', source: 'test', channels: [] }),
      );
    }
    page = await rig.newPage();
    await signIn(page, rig.host, await tokenFor(admin, { roles: ['platform_admin'] }));
  }, 60_000);
  beforeEach(async () => {
    // useIngestTablesExclusively empties the ingest tables before each test.
    quarantinedClub = await quarantineOnePath();
  });
  afterAll(async () => {
    await rig?.close();
    restoreSettings?.();
  });

  it('shows the quarantined ingest state highlighted, with every field, the step to take and the runbook section', async () => {
    await navLink(page, 'Diagnostics').click();
    // The state leads, before the step and every field.
    const state = page.getByTestId('ingest-state');
    await state.waitFor();
    expect(await state.innerText()).toBe('State: quarantined');
    const attention = page.getByTestId('ingest-attention');
    await attention.waitFor();
    // Each condition's incident rule in full, opened.
    for (const rule of await attention.locator('details > summary').all()) await rule.click();
    const text = await attention.innerText();
    expect(text).toContain('A producer path is quarantined');
    expect(text).toContain('start no large replay while the scope error is open');
    expect(text).toContain('Runbook: docs/runbook-ingest.md › “Quarantined”');
    expect(text).toContain('Source drift suspected');
    // The raw record is folded under "details", below what it means.
    await page.getByTestId('ingest-raw').locator(':scope > summary').click();
    const fields = page.getByTestId('ingest-fields');
    const row = (field: string) => fields.locator(`tr[data-field="${field}"]`);
    expect(await row('admissionState').getAttribute('class')).toBe('highlight');
    expect(await row('admissionState').innerText()).toContain('quarantined');
    expect(await row('quarantineClubId').innerText()).toContain(quarantinedClub);
    expect(await row('quarantineTopic').innerText()).toContain(`club.${quarantinedClub}.hits`);
    expect(await row('heartbeatAt').getAttribute('class')).toBe('');
    // Grouped by concern, each group under its heading, raw field names kept.
    const group = (id: string) => fields.locator(`table[data-group="${id}"]`);
    expect(await group('quarantine').locator('tr[data-field="quarantineTopic"]').count()).toBe(1);
    expect(await group('runner').locator('tr[data-field="heartbeatAt"]').count()).toBe(1);
    expect(await group('admission').locator('tr[data-field="sourceDriftDetail"]').count()).toBe(1);
    expect(await group('reject').locator('tr[data-field="lastContractRejectReason"]').count()).toBe(1);
    expect(await fields.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(
      expect.arrayContaining(['Runner', 'Lag and catch-up', 'Admission and drift', 'Quarantine', 'Last contract reject']),
    );
    for (const field of [
      'status',
      'workerState',
      'runnerKind',
      'catchUpState',
      'sourceDriftDetail',
      'lastContractRejectReason',
      'quarantineReason',
      'rejectBurstCount',
    ]) {
      expect(await row(field).count()).toBe(1);
    }
    // Incident rule 1: what to note, gathered in one place.
    const notes = page.getByRole('definition').filter({ hasText: `club_scope_mismatch on club.${quarantinedClub}.hits` });
    expect(await notes.count()).toBe(1);
    await screenshot(page, 'diagnostics');
  });

  it('the overview leads with the open problems, worst first: the quarantine, then the rest, each linking on', async () => {
    await navLink(page, 'Overview').click();
    const problems = page.getByTestId('problems');
    await problems.waitFor();
    const first = problems.locator('li').first();
    expect(await first.getAttribute('data-kind')).toBe('ingest_quarantined');
    expect(await first.innerText()).toContain(`club.${quarantinedClub}.hits`);
    // A club number without a service club: the problem links to the diagnostics page.
    expect(await first.getByRole('link', { name: 'Open diagnostics' }).getAttribute('href')).toBe('#/diagnostics');
    const ingest = page.getByTestId('overview-ingest');
    expect(await ingest.innerText()).toMatch(/^State: quarantined/);
    expect(await page.getByTestId('overview-freshness').innerText()).toMatch(
      /^Clubs: [1-9]\d* stale, \d+ unknown, \d+ fresh of \d+ checked\.$/,
    );
    // Stale clubs are named after it, each linking to its own page.
    const stale = problems.locator('li[data-kind="club_stale"]').first();
    expect(await stale.getByRole('link').first().getAttribute('href')).toMatch(/^#\/clubs\//);
    expect(await page.getByTestId('updated').innerText()).toMatch(/^Updated (now|\d+ seconds? ago)\.$/);
    // No cost provider in this rig: the overview says so instead of showing figures.
    expect(await page.getByTestId('overview-costs').count()).toBe(0);
    await page.getByText('Cost monitoring is not configured').first().waitFor();
    await screenshot(page, 'overview-incident');
    await ingest.getByRole('link', { name: 'diagnostics' }).click();
    await page.getByTestId('ingest-state').waitFor();
  });

  it('lists the backfills, a running one without progress marked', async () => {
    const group = `portal-backfill-${tag}`;
    const at = new Date(Date.now() - 10 * 60_000);
    await writeBackfillStatus(sql(), {
      consumerGroup: group,
      kind: 'shooters',
      scope: { clubIds: [quarantinedClub] },
      fresh: false,
      state: 'running',
      eventsRead: 40,
      eventsApplied: 3,
      eventsSkipped: 37,
      rowsWritten: 3,
      lagLeft: 60,
      progressIntervalMs: 2000,
      startedAt: at,
      updatedAt: at,
      finishedAt: null,
      errorMessage: null,
    });
    try {
      await navLink(page, 'Diagnostics').click();
      await page.getByRole('button', { name: 'Reload' }).click();
      const backfills = page.getByTestId('ingest-backfills');
      await backfills.waitFor();
      // Open while one runs; one row per backfill.
      expect(await backfills.getAttribute('open')).toBe('');
      const row = backfills.locator('tbody tr').filter({ hasText: group });
      const text = await row.innerText();
      expect(text).toContain(quarantinedClub);
      expect(text).toContain('running — no progress written for a while: has the process ended?');
      expect(text).toContain('60');
      // Not repeated as a field of the ingest table.
      expect(await page.getByTestId('ingest-fields').locator('tr[data-field="backfills"]').count()).toBe(0);
    } finally {
      await sql()`delete from ingest_backfill_status where consumer_group = ${group}`;
    }
  });

  it('lists the pending dead letters with what to do, newest first', async () => {
    await recordDeadLetters(
      sql(),
      { id: 'event:portal-e2e', kind: 'event' },
      new Date(),
      [
        {
          sqlState: '23514',
          detail: 'PostgresError: new row violates check constraint',
          topic: `club.${quarantinedClub}.hits`,
          clubId: quarantinedClub,
          entity: 'hits',
          partitionId: '1',
          sequenceNumber: 4242,
          enqueuedAt: null,
          message: null,
        },
      ],
      { keep: 1000, maxAgeDays: 30 },
    );
    await navLink(page, 'Diagnostics').click();
    await page.getByRole('button', { name: 'Reload' }).click();
    const letters = page.getByTestId('dead-letters');
    await letters.waitFor();
    // The problem list says they wait; the records open on demand.
    await letters.locator(':scope > summary').click();
    const text = await letters.locator('tbody tr').first().innerText();
    for (const expected of [quarantinedClub, '23514', 'violates check constraint', '4242']) expect(text).toContain(expected);
    expect(await page.getByText('Dead letters waiting for a replay: 1.').count()).toBe(1);
  });

  it('shows freshness per club with the rule-6 interpretation, 50 clubs a page', async () => {
    await page.getByTestId('freshness-all').locator(':scope > summary').click();
    const club = page.getByTestId('freshness').locator(`tr[data-club="${staleClub.vereinsId}"]`);
    const text = await club.innerText();
    expect(text).toContain(staleClub.name);
    expect(text).toContain('stale');
    expect(text).toContain('The box has stopped calling the cloud');
    expect(text).toContain('assumed (Wed 18–20)');
    const rows = page.getByTestId('freshness').locator('tbody tr');
    expect(await rows.count()).toBe(50);
    await page.getByRole('button', { name: 'Show more' }).click();
    await rows.nth(50).waitFor();
    expect(await rows.count()).toBeGreaterThan(50);
    expect(await page.getByText(/^Showing \d+ of \d+ clubs/).innerText()).toMatch(new RegExp(`^Showing ${await rows.count()} of`));
  });

  it('lists every club by default, the service club just created among them, and filters by status', async () => {
    await createServiceClub(sql(), { name: `Portal Just Created ${tag}`, vereinsId: `${tag}-new` });
    await navLink(page, 'Diagnostics').click();
    // The catalog is a work tool, closed until opened.
    await page.getByTestId('catalog-section').locator(':scope > summary').click();
    expect(await page.locator('#catalog-status').inputValue()).toBe('');
    await page.getByLabel('Search name or club number').fill(`Portal Just Created ${tag}`);
    await page.getByRole('button', { name: 'Filter' }).click();
    const catalog = page.getByTestId('catalog');
    const row = catalog.locator('tbody tr').filter({ hasText: `Portal Just Created ${tag}` });
    await row.waitFor();
    expect(await row.innerText()).toContain('in service');
    expect(await row.getAttribute('data-club')).toBe(`${tag}-new`);
    await page.locator('#catalog-status').selectOption('imported_only');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No clubs match.').waitFor();
  });

  it('lists imported_only clubs and adopts one', async () => {
    await page.locator('#catalog-status').selectOption('');
    await page.getByLabel('Search name or club number').fill(tag);
    await page.getByRole('button', { name: 'Filter' }).click();
    const catalog = page.getByTestId('catalog');
    const imported = catalog.locator(`tr[data-club="${tag}-7"]`);
    await imported.waitFor();
    // Every club of this run matches the tag; the imported one is among them with its box count.
    expect(await imported.innerText()).toMatch(new RegExp(`Portal Imported ${tag}\\s+${tag}-7\\s+known from the boxes only\\s+1`));
    expect(
      await catalog
        .locator('tbody tr')
        .filter({ hasText: `Portal Box ${tag}` })
        .count(),
    ).toBe(1);
    await screenshot(page, 'diagnostics-catalog');
    await page.getByRole('button', { name: `Adopt club ${tag}-7 (Portal Imported ${tag}) as a service club` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Portal Imported ${tag} (${tag}-7) is now a service club.` })
      .waitFor();
    await catalog.locator(`tr[data-club="${tag}-7"]`).filter({ hasText: 'in service' }).waitFor();
    const [club]: [{ status: string }?] = await sql()`select status from club where vereins_id = ${`${tag}-7`}`;
    expect(club?.status).toBe('active');
  });

  it('the bell shows the unread count and marks read, all read and deletes through the inbox endpoints', async () => {
    const bell = page.getByTestId('bell');
    await page.getByTestId('bell-count').filter({ hasText: '3' }).waitFor();
    expect(await bell.getAttribute('aria-label')).toBe('Notifications: 3 unread');
    await bell.click();
    const panel = page.getByTestId('bell-panel');
    const item = (title: string) => panel.locator('li').filter({ hasText: title });
    await item('Weekly report').waitFor();
    await item('Weekly report').getByRole('button', { name: 'Mark read' }).click();
    await page.getByTestId('bell-count').filter({ hasText: '2' }).waitFor();
    expect(await item('Weekly report').getByRole('button', { name: 'Mark read' }).count()).toBe(0);
    await screenshot(page, 'notifications');
    await item('Club stale').getByRole('button', { name: 'Delete' }).click();
    await item('Club stale').waitFor({ state: 'detached' });
    await page.getByTestId('bell-count').filter({ hasText: '1' }).waitFor();
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByTestId('bell-count').waitFor({ state: 'hidden' });
    expect(await bell.getAttribute('aria-label')).toBe('Notifications: 0 unread');
    const [counts]: [{ total: number; unread: number }?] =
      await sql()`select count(*)::int as total, count(*) filter (where read_at is null)::int as unread from notification where user_id = ${admin}`;
    expect(counts).toEqual({ total: 2, unread: 0 });
    await page.keyboard.press('Escape');
    expect(await panel.isHidden()).toBe(true);
    expect(await page.locator(':focus').getAttribute('data-testid')).toBe('bell');
  });
});
