import type { Page } from 'playwright-core';
import { recordReportedConsent } from '../../shared/boxConnector/consentRepository';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { createCostService } from '../../shared/costs/service';
import { getSql } from '../../shared/db/client';
import { dataFreshnessBlock } from '../../shared/freshness/diagnostics';
import { uniqueTag } from '../support/fixtures';
import { addHit, createFreshnessClub } from '../freshness/fixtures';
import { navLink, signIn, startPortalRig, type PortalRig } from '../portal/browser';
import { tokenFor } from '../support/tokens';

const sql = () => getSql();

/** The recorded consent per club in the diagnostics summary and on the portal's diagnostics page, in headless Chromium. */
describe('diagnostics: the consent each club reported', () => {
  let rig: PortalRig;
  let page: Page;
  const tag = uniqueTag();
  let revoked: { clubId: string; vereinsId: string | null };
  let silent: { clubId: string; vereinsId: string | null };

  beforeAll(async () => {
    rig = await startPortalRig({ costService: () => createCostService({ provider: undefined }) });
    // Stale clubs (data weeks ago) lead the freshness table, so both are on its first page.
    revoked = await createFreshnessClub(sql(), { name: `AAA Consent ${tag} revoked` });
    silent = await createFreshnessClub(sql(), { name: `AAA Consent ${tag} silent` });
    for (const club of [revoked, silent]) await addHit(sql(), club.vereinsId ?? '', new Date(Date.now() - 30 * 86_400_000));
    const { id: tokenId } = await createEdgeToken(sql(), revoked.clubId);
    await recordReportedConsent(sql(), {
      clubId: revoked.clubId,
      tokenId,
      report: { state: 'REVOKED', changedAt: '2026-11-20T18:00:00Z' },
    });
    page = await rig.newPage();
    await signIn(page, rig.host, await tokenFor(`consent-admin-${tag}`, { roles: ['platform_admin'] }));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('reports state, since and reportedAt per club, unknown for a club that never reported', async () => {
    const block = await dataFreshnessBlock(sql(), { limit: 1000, offset: 0 }, new Date());
    const entry = (clubId: string) => block.clubs.find((club) => club.clubId === clubId);
    expect(entry(revoked.clubId)?.consent).toMatchObject({ state: 'REVOKED', since: '2026-11-20T18:00:00.000Z' });
    expect(Date.parse(entry(revoked.clubId)?.consent.reportedAt ?? '')).toBeGreaterThan(Date.now() - 600_000);
    expect(entry(silent.clubId)?.consent).toEqual({ state: 'unknown', since: null, reportedAt: null });
  });

  it('shows the consent column in English and German', async () => {
    await navLink(page, 'Diagnostics').click();
    // Every club's row sits in the folded "all clubs" section of the incident view.
    await page.getByTestId('freshness-all').locator(':scope > summary').click();
    const table = page.getByTestId('freshness');
    await table.waitFor();
    const cell = (vereinsId: string | null) => table.locator(`tr[data-club="${vereinsId ?? ''}"] td[data-consent]`);
    expect(await table.locator('thead').innerText()).toContain('Data-sharing consent');
    expect(await cell(revoked.vereinsId).getAttribute('data-consent')).toBe('REVOKED');
    expect(await cell(revoked.vereinsId).innerText()).toContain('revoked: score data refused');
    expect(await cell(silent.vereinsId).innerText()).toContain('unknown (box does not report it)');

    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Diagnose' }).click();
    await page.getByTestId('freshness-all').locator(':scope > summary').click();
    await table.locator('thead', { hasText: 'Datenfreigabe' }).waitFor();
    expect(await cell(revoked.vereinsId).innerText()).toContain('widerrufen: Trefferdaten abgewiesen');
    expect(await cell(silent.vereinsId).innerText()).toContain('unbekannt');
    await page.getByLabel('Sprache').selectOption('en');
  });
});
