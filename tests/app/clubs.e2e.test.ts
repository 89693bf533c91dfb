import type { Page } from 'playwright-core';
import { createInvitation } from '../../shared/clubs/invitations';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, makeChallenge, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { card, screenshot, signIn, useAppRig } from './support';

/** Joining a club by invitation, and the shooter link: a member's claim, a leader's decision. */
describe('member app: club invitation and shooter link', () => {
  const rig = useAppRig();
  const leader = unique('club-leader');
  const coLeader = unique('club-coleader');
  const member = unique('club-member');
  const newcomer = unique('club-newcomer');
  let club: { clubId: string; clubNumber: string };
  let clubChallengeId: string;

  const shooterRecord = async (shooterId: string, name: string) =>
    getSql()`insert into club_data_shooter (source_club_id, source_record_id, display_name) values (${club.clubNumber}, ${shooterId}, ${name})`;
  const claim = async (page: Page, shooterId: string) => {
    await page.getByLabel('Shooter number').fill(shooterId);
    await page.getByRole('button', { name: 'Claim' }).click();
    await page.getByText('Claim sent: a leader of the club confirms it.').waitFor();
  };

  beforeAll(async () => {
    club = await createClub();
    await addMember(club.clubId, leader, 'leader');
    await addMember(club.clubId, coLeader, 'leader');
    await addMember(club.clubId, member);
    clubChallengeId = (await makeChallenge({ scope: 'club', clubId: club.clubId, title: unique('Club evening') })).id;
    await shooterRecord('S-100', 'Maria Member');
    await shooterRecord('S-200', 'Leo Leader');
    await shooterRecord('S-300', 'Other Person');
  });

  it('accepts an invitation from its link, then shows the club’s challenges; a used code is refused in words', async () => {
    const { code } = await createInvitation(getSql(), { clubId: club.clubId, createdBy: leader, expiresInHours: 24 });
    const page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(newcomer), `#/join?code=${encodeURIComponent(code)}`);
    expect(await page.getByLabel('Invitation code').inputValue()).toBe(code);
    await page.getByRole('link', { name: 'Club', exact: true }).count();
    await page.goto(`${rig.host.url}/app/#/challenges?tab=club`);
    await page.getByTestId('empty').waitFor();
    // Not in a club yet: the tab says how to join one and leads there.
    expect(await page.getByTestId('empty').locator('p').innerText()).toBe(
      'You are not in a club yet. With an invitation code from your club’s leaders you join it and see its challenges here.',
    );
    expect(await page.getByTestId('empty').getByRole('link', { name: 'Join a club' }).getAttribute('href')).toBe('#/join?code=');

    await page.goto(`${rig.host.url}/app/#/join?code=${encodeURIComponent(code)}`);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('You are now a member of the club.', { exact: false }).waitFor();
    await screenshot(page, 'join');
    await page.getByRole('status').getByRole('link', { name: 'Club' }).click();
    await card(page, clubChallengeId).waitFor();

    const again = await rig.newPage();
    await signIn(again, rig.host.url, await tokenFor(unique('late-newcomer')), `#/join?code=${encodeURIComponent(code)}`);
    await again.getByRole('button', { name: 'Accept invitation' }).click();
    const error = again.getByTestId('error');
    await error.waitFor();
    expect(await error.innerText()).toContain('This link has expired or was already used.');
    await again.close();
    await page.close();
  });

  it('lets a member claim their shooter record and see its state; a leader confirms or rejects others’ claims, never their own', async () => {
    const memberPage = await rig.newPage();
    await signIn(memberPage, rig.host.url, await tokenFor(member), '#/shooter');
    await memberPage.getByTestId('empty').getByText('You have not claimed a shooter record yet.').waitFor();
    await claim(memberPage, 'S-100');
    const ownClaims = memberPage.getByTestId('own-claims');
    await ownClaims.getByText('Waiting for a leader').waitFor();
    expect(await ownClaims.innerText()).toContain('Maria Member (S-100)');
    await screenshot(memberPage, 'shooter-pending');

    const leaderPage = await rig.newPage();
    await signIn(leaderPage, rig.host.url, await tokenFor(leader), '#/shooter');
    await claim(leaderPage, 'S-200');
    const pending = leaderPage.getByTestId('leader-claims').getByTestId('pending-claim');
    await pending.nth(1).waitFor();
    const own = pending.filter({ hasText: 'your own claim' });
    expect(await own.getAttribute('data-user')).toBe(leader);
    expect(await own.getByRole('button').count()).toBe(0);
    // Claimants by name and avatar, never by account id.
    expect(await pending.allInnerTexts()).not.toEqual(expect.arrayContaining([expect.stringContaining(member)]));
    await screenshot(leaderPage, 'shooter-leader');
    await leaderPage.getByRole('button', { name: /^Confirm: [^,]+, shooter Maria Member \(S-100\)$/ }).click();
    await pending.filter({ hasText: 'S-100' }).waitFor({ state: 'detached' });

    await memberPage.reload();
    await ownClaims.getByText('Confirmed').waitFor();

    // A co-leader decides the first leader's claim: rejected, and the first leader sees it so.
    const coLeaderPage = await rig.newPage();
    await signIn(coLeaderPage, rig.host.url, await tokenFor(coLeader), '#/shooter');
    await coLeaderPage.getByRole('button', { name: /^Reject: [^,]+, shooter Leo Leader \(S-200\)$/ }).click();
    await coLeaderPage.getByTestId('leader-claims').getByText('No open claims.').waitFor();
    await leaderPage.reload();
    await leaderPage.getByTestId('own-claims').getByText('Rejected').waitFor();
    await screenshot(leaderPage, 'shooter-rejected');
    for (const page of [memberPage, leaderPage, coLeaderPage]) await page.close();
  });
});
