import type { Page } from 'playwright-core';
import { putSharingPreferences } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, earnBadge, unique } from '../challenges/support';
import { bearer, tokenFor } from '../support/tokens';
import { screenshot, signIn, useAppRig } from './support';

/**
 * Another member's page (`#/member/{userId}`), opened from the club's member list: XP, tier and
 * badges as far as the member shares them. The member hides and shares; the others' view follows.
 */
describe('member app: another member’s page', () => {
  const rig = useAppRig();
  const leader = unique('page-leader');
  const owner = unique('page-owner');
  const outsider = unique('page-outsider');
  const sharedBadge = unique('badge-shared');
  const privateBadge = unique('badge-private');
  let clubId: string;
  let sharedParticipation: string;

  /** A completed participation of the owner in the club with the given flags, and its badge. */
  const earn = (badgeKey: string, share: { shareWithinClub: boolean; shareGlobally: boolean }) =>
    earnBadge(owner, clubId, share, badgeKey, `Challenge of ${badgeKey}`);

  const keysOn = async (page: Page) =>
    Promise.all((await page.locator('[data-testid="member-page"] [data-testid="badge"]').all()).map((el) => el.getAttribute('data-key')));
  const share = async (shareWithinClub: boolean, shareGlobally: boolean) => {
    const response = await rig.host.request('PUT', '/api/challenges/sharing-preferences', {
      headers: await bearer(owner),
      json: { shareWithinClub, shareGlobally },
    });
    expect(response.status).toBe(200);
  };

  beforeAll(async () => {
    ({ clubId } = await createClub());
    await addMember(clubId, leader, 'leader');
    await addMember(clubId, owner);
    await addMember((await createClub()).clubId, outsider);
    sharedParticipation = await earn(sharedBadge, { shareWithinClub: true, shareGlobally: false });
    await earn(privateBadge, { shareWithinClub: false, shareGlobally: false });
    await getSql()`insert into xp_total (user_id, lifetime_xp) values (${owner}, 1600)`;
    // The owner's sharing defaults: within the club (the XP ladders' opt-in).
    await putSharingPreferences(getSql(), owner, { shareWithinClub: true, shareGlobally: false });
  });

  it('opens from the club’s member list and shows what the member shares with the club: XP, tier, the club-shared badge', async () => {
    const page = await rig.newPage({ width: 390, height: 844 });
    await signIn(page, rig.host.url, await tokenFor(leader), `#/club/${clubId}`);
    await page.locator(`[data-testid="member"][data-user="${owner}"]`).getByRole('link').click();
    await page.getByTestId('member-standing').waitFor();
    expect(page.url()).toBe(`${rig.host.url}/app/#/member/${owner}`);
    // The member by name and avatar, never by their id.
    expect(await page.getByRole('heading', { level: 1 }).innerText()).not.toContain(owner);
    const standing = page.getByTestId('member-standing');
    await standing.getByText('1,600').waitFor();
    expect(await standing.innerText()).toContain('Silver');
    await page.getByTestId('badge').first().waitFor();
    expect(await keysOn(page)).toEqual([sharedBadge]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'member-page-shared');
    await page.close();
  });

  it('shows the badge from a private challenge once the member switches it on in their profile, and hides it again', async () => {
    const ownerPage = await rig.newPage();
    await signIn(ownerPage, rig.host.url, await tokenFor(owner), '#/profile');
    const toggle = ownerPage.getByRole('switch', { name: 'Show my badges from private challenges to my clubs' });
    const saved = () =>
      ownerPage.waitForResponse((response) => response.url().endsWith('/badge-preferences') && response.request().method() === 'PUT');
    let answer = saved();
    await ownerPage.getByText('Show my badges from private challenges to my clubs', { exact: true }).click();
    expect((await answer).status()).toBe(200);
    // The switch shows the new state once the page has read the answer, a moment after the response arrives.
    await ownerPage.getByRole('switch', { name: 'Show my badges from private challenges to my clubs', checked: true }).waitFor();
    expect(await toggle.isChecked()).toBe(true);

    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(leader), `#/member/${owner}`);
    await page.getByTestId('badge').nth(1).waitFor();
    expect((await keysOn(page)).sort()).toEqual([sharedBadge, privateBadge].sort());
    expect(await page.locator(`[data-key="${privateBadge}"]`).innerText()).toContain('from a private challenge');

    answer = saved();
    await ownerPage.getByText('Show my badges from private challenges to my clubs', { exact: true }).click();
    expect((await answer).status()).toBe(200);
    await page.reload();
    await page.getByTestId('badge').first().waitFor();
    expect(await keysOn(page)).toEqual([sharedBadge]);
    await ownerPage.close();
    await page.close();
  });

  it('shows an outsider neither XP nor club-shared badges; sharing globally shows them the XP', async () => {
    const page = await rig.newPage({ locale: 'de-DE' });
    await page.goto(`${rig.host.url}/app/#/member/${owner}`);
    await page.getByLabel('Bearer-Token').fill(await tokenFor(outsider));
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByText('Dieses Mitglied teilt seine XP nicht mit dir.').waitFor();
    await page.getByText('Keine Abzeichen, die du sehen kannst', { exact: false }).waitFor();
    await screenshot(page, 'member-page-outsider-de');

    await share(true, true);
    await page.reload();
    await page.getByTestId('member-standing').getByText('1.600').waitFor();
    // The badges follow their participations' flags, not the defaults: still none for an outsider.
    expect(await keysOn(page)).toEqual([]);
    await share(true, false);
    await page.close();
  });

  it('shows a club mate nothing once the member shares with nobody', async () => {
    // Private badges hidden again whatever an earlier test left switched on.
    const badges = await rig.host.request('PUT', '/api/challenges/badge-preferences', {
      headers: await bearer(owner),
      json: { showPrivateBadges: false },
    });
    expect(badges.status).toBe(200);
    await share(false, false);
    const hidden = await rig.host.request('PATCH', `/api/challenges/participations/${sharedParticipation}/visibility`, {
      headers: await bearer(owner),
      json: { shareWithinClub: false },
    });
    expect(hidden.status).toBe(200);
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(leader), `#/member/${owner}`);
    await page.getByText('This member does not share their XP with you.').waitFor();
    await page.getByText('No badges you can see', { exact: false }).waitFor();
    expect(await keysOn(page)).toEqual([]);
    await screenshot(page, 'member-page-nothing');
    await page.close();
  });
});
