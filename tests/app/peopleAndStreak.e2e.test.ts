import type { Page } from 'playwright-core';
import { getSql } from '../../shared/db/client';
import { confirmationUrl } from '../../shared/notifications/contactConfirmationToken';
import { addMember, createClub, hitsOn, insertHits, linkShooter, makeChallenge, unique } from '../challenges/support';
import { bearer, tokenFor } from '../support/tokens';
import { signInGerman } from './appSupportGerman';
import { card, screenshot, useAppRig } from './support';

/**
 * People, the streak and the contact email in the member app, against the service's profile,
 * streak and contact confirmation routes (docs/member-app.md#people-names-and-the-streak): names
 * and initials instead of user ids, the neutral word for someone without a profile, changing the
 * own name, the training streak, and an email address confirmed before email switches work.
 */
describe('member app: people, streak and contact email', () => {
  const rig = useAppRig();
  const tag = unique('leute');
  const anna = unique('anna');
  const ben = unique('ben');
  const nameless = unique('ohne-profil');
  const annaClaims = { name: 'Anna Schütz', email: `${anna}@example.org`, email_verified: true };
  let clubId: string;
  let challengeId: string;
  let page: Page;
  const annaToken = () => tokenFor(anna, { claims: annaClaims });

  beforeAll(async () => {
    const club = await createClub();
    clubId = club.clubId;
    for (const user of [anna, ben, nameless]) await addMember(clubId, user);
    const shooter = await linkShooter(club, anna);
    await insertHits(club.clubNumber, shooter, hitsOn(new Date(), 5, 9.5));
    challengeId = (await makeChallenge({ scope: 'club', clubId, title: `Vereinsabend ${tag}`, description: 'Zehn Schüsse' })).id;
    // Ben signs in once with his name; the member without a profile never has.
    expect(
      (await rig.host.request('GET', '/api/me/profile', { headers: await bearer(ben, { claims: { name: 'Ben Berger' } }) })).status,
    ).toBe(200);
    for (const user of [ben, nameless]) {
      const headers = await bearer(user);
      await rig.host.request('PUT', '/api/challenges/sharing-preferences', {
        headers,
        json: { shareWithinClub: true, shareGlobally: false },
      });
      await rig.host.request('POST', `/api/challenges/${challengeId}/join`, { headers });
    }
    page = await rig.newPage({ locale: 'de-DE', width: 390 });
    await signInGerman(page, rig.host.url, await annaToken(), '#/profile');
  });

  it('takes the name from the sign-in, shows its initials, and lets the member write their own', async () => {
    const section = page.getByTestId('profile-name');
    const name = section.getByLabel('Name, den andere sehen');
    await name.waitFor();
    expect(await name.inputValue()).toBe('Anna Schütz');
    expect(await section.getByTestId('avatar').innerText()).toBe('AS');
    expect(await section.getByRole('status').innerText()).toContain('Aus deiner Anmeldung übernommen.');
    await name.fill('Anna S.');
    await section.getByRole('button', { name: 'Speichern' }).click();
    await section.getByRole('status').getByText('Gespeichert.').waitFor();
    await screenshot(page, 'de-profile-name');
    // A name with a direction override is refused in words, naming the field as the member knows it.
    await name.fill('Anna\u202Eevil');
    await section.getByRole('button', { name: 'Speichern' }).click();
    expect(await section.getByTestId('error').innerText()).toContain('Bitte prüfe: Name, den andere sehen.');
    const stored = (await (await rig.host.request('GET', '/api/me/profile', { headers: await bearer(anna) })).json()) as {
      displayName: string;
      nameFromSignIn: boolean;
    };
    expect(stored).toMatchObject({ displayName: 'Anna S.', nameFromSignIn: false });
  });

  it('shows the training streak of the member’s own shots', async () => {
    const streak = page.getByTestId('streak');
    await streak.getByTestId('streak-week').waitFor();
    expect(await streak.innerText()).toContain('1 Woche in Folge');
    expect(await streak.getByTestId('streak-week').innerText()).toBe('Du hast diese Woche trainiert: sie zählt.');
    const other = await rig.newPage({ locale: 'de-DE', width: 390 });
    await signInGerman(other, rig.host.url, await tokenFor(ben), '#/profile');
    await other.getByTestId('streak').getByRole('link', { name: 'Schützendaten beanspruchen' }).waitFor();
    await other.close();
  });

  it('names people with their avatar on the board, the member list and their page, and a neutral word without a profile', async () => {
    await page.goto(`${rig.host.url}/app/#/leaderboard/${challengeId}?board=club`);
    await page.getByTestId('leaderboard').waitFor();
    const names = await page.getByTestId('board-row').locator('a.person').allInnerTexts();
    // Ben by his sign-in name and initials; the other, with no name of their own, by the neutral word.
    const shown = names.map((text) => text.replace(/\s+/g, ' ').trim());
    expect(shown).toHaveLength(2);
    expect(shown).toContain('BB Ben Berger');
    expect(shown.filter((text) => text.endsWith('Mitglied'))).toHaveLength(1);
    expect(await page.getByTestId('leaderboard').innerText()).not.toContain(ben);
    await screenshot(page, 'de-leaderboard-names');
    await page.getByTestId('board-row').locator('a.person', { hasText: 'Ben Berger' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ben Berger' }).waitFor();
    await page.goto(`${rig.host.url}/app/#/club/${clubId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain(nameless);
  });

  it('offers the sign-in’s email first, confirms another address by its link, and only then switches email on', async () => {
    await page.goto(`${rig.host.url}/app/#/settings`);
    const contact = page.getByTestId('contact');
    await contact.getByRole('button', { name: `${anna}@example.org verwenden` }).click();
    await contact.getByText(`E-Mails gehen an ${anna}@example.org.`).waitFor();
    expect(await page.getByTestId('email-unavailable').count()).toBe(0);
    expect(await page.getByRole('switch', { name: 'E-Mail-Benachrichtigungen' }).isDisabled()).toBe(false);

    await contact.getByLabel('Andere Adresse').fill(`${anna}@verein.example`);
    await contact.getByRole('button', { name: 'Bestätigungslink senden' }).click();
    await contact.getByTestId('contact-pending').waitFor();
    expect(await contact.getByTestId('contact-pending').innerText()).toContain(`${anna}@verein.example`);
    // Meanwhile the confirmed address stays in use.
    expect(await contact.getByTestId('contact-state').innerText()).toBe(`E-Mails gehen an ${anna}@example.org.`);
    await screenshot(page, 'de-settings-pending');

    // The link the confirmation email carries (written at send time from the confirmation's id).
    const [pending] = await getSql()<{ id: string }[]>`
      select id::text as id from user_contact_confirmation where user_id = ${anna} order by created_at desc limit 1`;
    const link = confirmationUrl(rig.host.url, pending?.id ?? '');
    const token = new URL(link.replace('/#/', '/')).searchParams.get('token');
    await page.goto(link);
    expect(await page.getByTestId('confirm-done').innerText()).toBe(`Danke: E-Mails gehen jetzt an ${anna}@verein.example.`);
    await screenshot(page, 'de-confirm-email');
    // Used once: the same link again is refused in words.
    await page.goto(`${rig.host.url}/app/#/challenges?tab=club`);
    await card(page, challengeId).waitFor();
    await page.goto(`${rig.host.url}/app/#/confirm-email?token=${encodeURIComponent(token ?? '')}`);
    await page.getByTestId('confirm-invalid').waitFor();
  });
});
