import type { Page } from 'playwright-core';
import { createInvitation } from '../../shared/clubs/invitations';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { screenshot, signIn, useAppRig } from './support';

/** The club screen: a leader invites, revokes and removes; a member sees only their own way out. */
describe('member app: club screen', () => {
  const rig = useAppRig();
  const leader = unique('screen-leader');
  const member = unique('screen-member');
  let club: { clubId: string };

  const openInvitations = (page: Page) => page.getByTestId('open-invitations').getByTestId('invitation');
  const members = (page: Page) => page.getByTestId('members').getByTestId('member');

  beforeAll(async () => {
    club = await createClub();
    await addMember(club.clubId, leader, 'leader');
    await addMember(club.clubId, member);
  });

  it('lets a leader invite: the code and its join link are shown once, the invitation stays listed without its code', async () => {
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(leader), `#/club/${club.clubId}`);
    await page.getByTestId('members').getByTestId('member').first().waitFor();
    const before = await openInvitations(page).count();
    await page.getByLabel('Valid for (hours, optional)').fill('48');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const code = await page.getByTestId('invitation-code').inputValue();
    expect(code.length).toBeGreaterThan(5);
    expect(await page.getByTestId('invitation-link').inputValue()).toBe(`${rig.host.url}/app/#/join?code=${encodeURIComponent(code)}`);
    await openInvitations(page).nth(before).waitFor();
    await screenshot(page, 'club-invite');

    await page.reload();
    await openInvitations(page).nth(before).waitFor();
    expect(await page.getByTestId('new-invitation').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(code);
    await page.close();
  });

  it('lets a newcomer accept through the link; the leader then sees and removes them after a confirmation', async () => {
    const newcomer = unique('screen-newcomer');
    const leaderPage = await rig.newPage();
    await signIn(leaderPage, rig.host.url, await tokenFor(leader), `#/club/${club.clubId}`);
    await leaderPage.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await leaderPage.getByTestId('invitation-link').inputValue();

    const newcomerPage = await rig.newPage();
    await signIn(newcomerPage, rig.host.url, await tokenFor(newcomer), link.slice(link.indexOf('#')));
    await newcomerPage.getByRole('button', { name: 'Accept invitation' }).click();
    await newcomerPage.getByText('You are now a member of the club.', { exact: false }).waitFor();
    await newcomerPage.getByRole('link', { name: 'Clubs', exact: true }).click();
    await newcomerPage.getByTestId('my-clubs').getByRole('link').first().waitFor();
    await newcomerPage.close();

    await leaderPage.reload();
    // People are shown by name (a neutral word without a profile), never by their id: the row is found by its data.
    const row = leaderPage.locator(`[data-testid="member"][data-user="${newcomer}"]`);
    await row.waitFor();
    expect(await members(leaderPage).allInnerTexts()).not.toContainEqual(expect.stringContaining(newcomer));
    await row.getByRole('button', { name: /^Remove: / }).click();
    await leaderPage.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: /^Remove: / }).click();
    await screenshot(leaderPage, 'club-remove-confirm');
    await leaderPage.getByRole('button', { name: 'Yes, remove' }).click();
    await row.waitFor({ state: 'detached' });
    const [left] = await getSql()<{ n: number }[]>`
      select count(*)::int as n from club_membership where club_id = ${club.clubId} and user_id = ${newcomer}`;
    expect(left?.n).toBe(0);
    await leaderPage.close();
  });

  it('shows the last leader’s own removal refused in words, and keeps them', async () => {
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(leader), `#/club/${club.clubId}`);
    const own = page.locator(`[data-testid="member"][data-user="${leader}"]`);
    await own.getByRole('button', { name: /^Remove: / }).click();
    await page.getByRole('button', { name: 'Yes, remove' }).click();
    await page
      .getByTestId('members')
      .getByTestId('error')
      .getByText('The club would be left without a leader.', { exact: false })
      .waitFor();
    expect(await own.count()).toBe(1);
    await page.close();
  });

  it('revokes an open invitation: it leaves the list and its code stops working', async () => {
    const { id, code } = await createInvitation(getSql(), { clubId: club.clubId, createdBy: leader, expiresInHours: 24 });
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(leader), `#/club/${club.clubId}`);
    const invitation = page.locator(`[data-invitation-id="${id}"]`);
    await invitation.getByRole('button', { name: /^Revoke: / }).click();
    await invitation.waitFor({ state: 'detached' });
    await page.close();

    const late = await rig.newPage();
    await signIn(late, rig.host.url, await tokenFor(unique('screen-late')), `#/join?code=${encodeURIComponent(code)}`);
    await late.getByRole('button', { name: 'Accept invitation' }).click();
    await late.getByTestId('error').waitFor();
    await late.close();
  });

  it('shows a plain member no leader controls, only "Leave club" behind a confirmation', async () => {
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(member), '#/clubs');
    await page.getByTestId('my-clubs').locator(`a[href="#/club/${club.clubId}"]`).click();
    await page.getByRole('button', { name: 'Leave club' }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(0);
    expect(await page.getByTestId('members').count()).toBe(0);
    expect(await page.getByTestId('open-invitations').count()).toBe(0);
    await screenshot(page, 'club-member');
    await page.getByRole('button', { name: 'Leave club' }).click();
    await page.getByRole('button', { name: 'Yes, leave' }).click();
    await page.getByText('You have left the club.').waitFor();
    const [row] = await getSql()<{ n: number }[]>`
      select count(*)::int as n from club_membership where club_id = ${club.clubId} and user_id = ${member}`;
    expect(row?.n).toBe(0);
    await page.close();
  });

  it('speaks German at phone width', async () => {
    const page = await rig.newPage({ locale: 'de-DE', width: 390, height: 844 });
    await page.goto(`${rig.host.url}/app/#/club/${club.clubId}`);
    await page.getByLabel('Bearer-Token').fill(await tokenFor(leader));
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Vereine' }).waitFor();
    await page.getByRole('heading', { name: 'Mitglied einladen' }).waitFor();
    await page.getByRole('button', { name: 'Einladen', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Offene Einladungen' }).waitFor();
    await page.getByTestId('members').getByTestId('member').first().waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'club-de-phone');
    await page.close();
  });

  it('invites with the keyboard alone', async () => {
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(leader), `#/club/${club.clubId}`);
    const hours = page.getByLabel('Valid for (hours, optional)');
    await hours.waitFor();
    await hours.focus();
    await page.keyboard.type('12');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Invite');
    await page.keyboard.press('Enter');
    await page.getByTestId('invitation-code').waitFor();
    await screenshot(page, 'club-keyboard');
    await page.close();
  });
});
