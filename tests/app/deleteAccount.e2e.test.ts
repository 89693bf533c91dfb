import type { Page } from 'playwright-core';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, makeChallenge, unique } from '../challenges/support';
import { bearer, tokenFor } from '../support/tokens';
import { signInGerman } from './appSupportGerman';
import { focusAfterRender, screenshot, useAppRig } from './support';

/**
 * "Konto und Daten löschen" in the member app's settings (docs/member-app.md, Settings): the
 * question says what is lost, "Abbrechen" changes nothing, "Ja, alles löschen" erases the
 * member's data through DELETE /api/me and signs them out; a club mate's data stays.
 */
describe('member app: deleting the account and its data', () => {
  const rig = useAppRig();
  const member = unique('loeschen');
  const mate = unique('bleibt');
  let clubId: string;
  let page: Page;

  const rowsOf = async (userId: string) => {
    const sql = getSql();
    const [row] = await sql<{ profiles: number; memberships: number; participations: number; inbox: number }[]>`
      select (select count(*)::int from person_profile where user_id = ${userId}) as profiles,
        (select count(*)::int from club_membership where user_id = ${userId}) as memberships,
        (select count(*)::int from challenge_participation where user_id = ${userId}) as participations,
        (select count(*)::int from notification where user_id = ${userId}) as inbox`;
    return row;
  };

  beforeAll(async () => {
    ({ clubId } = await createClub());
    const challengeId = (await makeChallenge({ scope: 'club', clubId, title: unique('Vereinsabend') })).id;
    for (const user of [member, mate]) {
      await addMember(clubId, user);
      const headers = await bearer(user, { claims: { name: `Name ${user}` } });
      expect((await rig.host.request('POST', `/api/challenges/${challengeId}/join`, { headers })).status).toBe(201);
      await getSql()`insert into notification (user_id, title, kind, source) values (${user}, 'Hallo', 'member', 'test')`;
    }
    page = await rig.newPage({ locale: 'de-DE', width: 390 });
    await signInGerman(page, rig.host.url, await tokenFor(member, { claims: { name: 'Lena Löscher' } }), '#/settings');
  });

  it('says what is lost, and "Abbrechen" keeps everything', async () => {
    const section = page.getByTestId('delete-account');
    await section.getByRole('button', { name: 'Konto und Daten löschen' }).click();
    const question = section.getByTestId('delete-account-confirm');
    await question.waitFor();
    const text = await question.innerText();
    for (const lost of ['deine Vereinsmitgliedschaften', 'Abzeichen und XP', 'nicht rückgängig', 'abgemeldet'])
      expect(text).toContain(lost);
    await screenshot(page, 'de-delete-account-question');
    await question.getByRole('button', { name: 'Abbrechen' }).click();
    await section.getByRole('button', { name: 'Konto und Daten löschen' }).waitFor();
    expect(await focusAfterRender(page, 'document.activeElement?.textContent', 'Konto und Daten löschen')).toBe('Konto und Daten löschen');
    expect(await rowsOf(member)).toEqual({ profiles: 1, memberships: 1, participations: 1, inbox: 1 });
  });

  it('erases the member’s data, signs them out, and leaves the club mate’s', async () => {
    const section = page.getByTestId('delete-account');
    await section.getByRole('button', { name: 'Konto und Daten löschen' }).click();
    await section.getByRole('button', { name: 'Ja, alles löschen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Hauptnavigation' }).count()).toBe(0);
    expect(await page.evaluate("sessionStorage.getItem('signin.app.tokens')")).toBeNull();
    await screenshot(page, 'de-delete-account-signed-out');
    expect(await rowsOf(member)).toEqual({ profiles: 0, memberships: 0, participations: 0, inbox: 0 });
    expect(await rowsOf(mate)).toEqual({ profiles: 1, memberships: 1, participations: 1, inbox: 1 });
    // Signing in again starts afresh: a nameless sign-in has a new profile without a name.
    const fresh = await rig.host.request('GET', '/api/me/profile', { headers: await bearer(member, { claims: {} }) });
    expect(await fresh.json()).toMatchObject({ displayName: null, initials: null, nameFromSignIn: true });
  });
});
