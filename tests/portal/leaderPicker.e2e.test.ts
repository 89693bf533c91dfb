import type { Page } from 'playwright-core';
import { clubOverviewFunctions } from '../../functions/clubOverview';
import { clubFunctions } from '../../functions/clubs';
import { functionDefinitions } from '../../functions/definitions';
import { meFunctions } from '../../functions/me';
import { createCostService } from '../../shared/costs/service';
import type { FunctionDefinition } from '../../shared/host/definition';
import { getSql } from '../../shared/db/client';
import { createFreshnessClub } from '../freshness/fixtures';
import { uniqueTag, type ClubFixture } from '../support/fixtures';
import { bearer, tokenFor } from '../support/tokens';
import { screenshot, signIn, startPortalRig, type PortalRig } from './browser';

const sql = () => getSql();

/**
 * The routes the picker reads beyond the club's own: the people who have signed in
 * (GET /api/admin/people) and their profiles (PUT /api/me/profile, to give one a name), served by
 * whichever function group the app declares for them.
 */
function peopleFunctions() {
  const inRig = [...meFunctions, ...clubFunctions, ...clubOverviewFunctions];
  const names = new Set(inRig.map((definition) => definition.name));
  const paths = (definitions: readonly FunctionDefinition[]) =>
    definitions.flatMap((definition) => (definition.kind === 'http' ? definition.routes.map((route) => route.path) : []));
  const wanted = ['/api/admin/people', '/api/me/profile'];
  const found = functionDefinitions.filter(
    (definition) => !names.has(definition.name) && paths([definition]).some((path) => wanted.includes(path)),
  );
  const served = new Set(paths([...inRig, ...found]));
  const missing = wanted.filter((path) => !served.has(path));
  if (missing.length) throw new Error(`No function serves ${missing.join(', ')} yet: the leader picker needs the profiles.`);
  return found;
}

/** Leaders from people who signed in: lookup, confirm, undo; a typed id is refused. In Chromium over the real API. */
describe('portal: the leader picker', () => {
  let rig: PortalRig;
  let page: Page;
  let leaderless: ClubFixture;
  let led: ClubFixture;
  const tag = uniqueTag();
  const mia = { userId: `picker-mia-${tag}`, displayName: `Mia Picker ${tag}` };
  const roleOf = async (clubId: string, userId: string) => {
    const [row] = await sql()<{ role: string }[]>`select role from club_membership where club_id = ${clubId} and user_id = ${userId}`;
    return row?.role ?? null;
  };

  beforeAll(async () => {
    rig = await startPortalRig({
      costService: () => createCostService({ provider: undefined }),
      extra: [...clubOverviewFunctions, ...clubFunctions, ...peopleFunctions()],
    });
    leaderless = await createFreshnessClub(sql(), { name: `Picker Leaderless ${tag}`, members: 1 });
    led = await createFreshnessClub(sql(), { name: `Picker Led ${tag}`, leaders: 1, members: 1 });
    // Mia signs in and names herself in the member app.
    const named = await fetch(`${rig.host.url}/api/me/profile`, {
      method: 'PUT',
      headers: { ...(await bearer(mia.userId)), 'content-type': 'application/json' },
      body: JSON.stringify({ displayName: mia.displayName }),
    });
    expect(named.status).toBe(200);
    page = await rig.newPage();
    await signIn(page, rig.host, await tokenFor(`picker-admin-${tag}`, { roles: ['platform_admin'] }));
  }, 60_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('refuses a mistyped id: nobody matches, and Enter sends nothing', async () => {
    await page.goto(`${rig.host.url}/portal/#/clubs/${leaderless.clubId}`);
    await page.getByRole('heading', { name: 'Make a person the first leader' }).waitFor();
    const search = page.getByLabel('Find a person who has signed in');
    await search.fill(`picker-mai-${tag}`);
    await page.getByTestId('leader-results').filter({ hasText: 'Nobody who has signed in matches' }).waitFor();
    await search.press('Enter');
    expect(await page.getByTestId('leader-error').innerText()).toBe('Choose a person from the list: a typed name or id is not taken.');
    expect(await roleOf(leaderless.clubId, `picker-mai-${tag}`)).toBeNull();
    await screenshot(page, 'leader-picker-refused');
  });

  it('appoints a person picked by name after confirming, and says so', async () => {
    await page.goto(`${rig.host.url}/portal/#/clubs/${leaderless.clubId}`);
    await page.getByLabel('Find a person who has signed in').fill('Mia Picker');
    await page.getByRole('button', { name: `Choose ${mia.displayName}` }).click();
    const confirmation = page.getByTestId('leader-confirmation');
    expect(await confirmation.innerText()).toContain(`Make ${mia.displayName} a leader of Picker Leaderless ${tag}?`);
    expect(await roleOf(leaderless.clubId, mia.userId)).toBeNull();
    await page.getByTestId('leader-confirm').click();
    const notice = page.getByTestId('members-notice');
    await notice.filter({ hasText: `${mia.displayName} is now a leader of the club.` }).waitFor();
    expect(await roleOf(leaderless.clubId, mia.userId)).toBe('leader');
    // The only leader cannot be undone: the server keeps the last one, and the page says why.
    await page.getByTestId('leader-undo').click();
    await notice.getByRole('alert').filter({ hasText: 'Undoing failed' }).waitFor();
    expect(await roleOf(leaderless.clubId, mia.userId)).toBe('leader');
  });

  it('undoes an appointment from the same page, at a phone’s width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${rig.host.url}/portal/#/clubs/${led.clubId}`);
    await page.getByLabel('Find a person who has signed in').fill(mia.userId);
    await page.getByRole('button', { name: `Choose ${mia.displayName}` }).click();
    await page.getByTestId('leader-confirm').click();
    await page.getByTestId('members-notice').filter({ hasText: 'is now a leader' }).waitFor();
    await screenshot(page, 'leader-picker-appointed-phone');
    await page.getByTestId('leader-undo').click();
    await page
      .getByTestId('members-notice')
      .filter({ hasText: `${mia.displayName} is no longer a leader of the club.` })
      .waitFor();
    expect(await roleOf(led.clubId, mia.userId)).not.toBe('leader');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
