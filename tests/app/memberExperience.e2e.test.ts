import type { Page } from 'playwright-core';
import { iconPath } from '../../app/src/badgeArt';
import { upsertBadge } from '../../shared/challenges/badgeRepository';
import { badge } from '../../shared/challenges/presets';
import { getSql } from '../../shared/db/client';
import { notify } from '../../shared/notifications/notify';
import { addMember, createClub, makeChallenge, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { phrasesOnlyIn, phrasesShown, signInGerman } from './appSupportGerman';
import { card, focusAfterRender, screenshot, useAppRig } from './support';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * The member app as club members use it, in German at a phone's width: the request's language,
 * every destination on the phone, joining without a shooter record, the focus after actions, a
 * locked badge, email switches before an address is confirmed, push on an iPhone, installing, and
 * no English on a German screen (nor German on an English one).
 */
describe('member app: German, phone width, nothing lost', () => {
  const rig = useAppRig();
  const tag = unique('erlebnis');
  const member = unique('mitglied');
  const leader = unique('leitung');
  let clubId: string;
  let challengeId: string;
  let page: Page;

  beforeAll(async () => {
    const club = await createClub();
    clubId = club.clubId;
    await addMember(clubId, member);
    await addMember(clubId, leader, 'leader');
    const badgeKey = `e-${tag}`.toLowerCase().slice(0, 40);
    const description = { de: 'Zehn Schüsse im Verein', en: 'Ten shots at the club' };
    await upsertBadge(getSql(), badge(badgeKey, { de: 'Zielsicher', en: 'Sure shot' }, 'zap', '#2e7d32', 'silver', description));
    challengeId = (
      await makeChallenge({
        scope: 'club',
        clubId,
        title: `Zehn Schüsse ${tag}`,
        description: 'Zehn Schüsse im Verein',
        rules: { goal: { metric: 'shots', target: 10 }, rewardBadge: badgeKey },
      })
    ).id;
    await getSql().begin((tx) =>
      notify(tx, { userId: member, title: 'Willkommen im Verein', tone: 'info', kind: 'challenge', source: 'test', channels: [] }),
    );
    page = await rig.newPage({ locale: 'de-DE', width: 390 });
    await signInGerman(page, rig.host.url, await tokenFor(member), '#/challenges?tab=club');
  });

  it('sends the language it shows on every API call, and the other one after switching', async () => {
    const languages: (string | undefined)[] = [];
    // Every call but the sign-in's configuration, which the page reads before it knows the member or draws a word.
    const listen = (request: { url(): string; headers(): Record<string, string> }) => {
      if (request.url().includes('/api/') && !request.url().includes('/api/auth/config'))
        languages.push(request.headers()['accept-language']);
    };
    page.on('request', listen);
    await page.reload();
    await card(page, challengeId).waitFor();
    expect([languages.length > 0, [...new Set(languages)]]).toEqual([true, ['de']]);
    languages.length = 0;
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Inbox' }).click();
    await page.getByTestId('inbox-list').waitFor();
    expect([languages.length > 0, [...new Set(languages)]]).toEqual([true, ['en']]);
    page.off('request', listen);
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).waitFor();
  });

  it('shows every destination of the navigation on a 390 px phone, none off-screen', async () => {
    const links = await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link').all();
    expect(links.length).toBe(6);
    for (const link of links) {
      const box = await link.boundingBox();
      const name = await link.innerText();
      expect([name, box !== null && box.x >= 0 && box.x + box.width <= 390]).toEqual([name, true]);
    }
    await screenshot(page, 'de-navigation-phone');
  });

  it('says why progress cannot count without a confirmed shooter record, leads to the claim, and keeps the focus on the card', async () => {
    await page.goto(`${rig.host.url}/app/#/challenges?tab=club`);
    const own = card(page, challengeId);
    await own.getByRole('button', { name: 'Mitmachen' }).click();
    const progress = own.getByTestId('progress');
    await progress.getByRole('link', { name: 'Schützendaten beanspruchen' }).waitFor();
    expect(await progress.innerText()).toContain('Deine Schüsse zählen erst, wenn deine Schützendaten bestätigt sind.');
    expect(await progress.getByRole('link').getAttribute('href')).toBe('#/shooter');
    // The focus moved to what took the place of "Mitmachen", not to the top of the page.
    await own.locator('button:focus', { hasText: 'Verlassen' }).waitFor();
    // A privacy switch keeps the focus while its change is saved.
    await own.getByRole('switch', { name: 'Im Verein teilen' }).focus();
    const saved = page.waitForResponse((response) => response.url().includes('/visibility'));
    await page.keyboard.press('Space');
    expect((await saved).status()).toBe(200);
    await own.locator('input[data-testid="share-club"]:checked').waitFor();
    expect(await focusAfterRender(page, "document.activeElement?.getAttribute('data-testid')", 'share-club')).toBe('share-club');
    await screenshot(page, 'de-challenge-joined');
    // Leaving with nothing counted yet still asks, and says that a new start is from zero.
    await own.getByRole('button', { name: 'Verlassen' }).click();
    expect(await own.getByTestId('leave-confirm').locator('p').innerText()).toBe(
      'Diese Challenge verlassen? Wer wieder mitmacht, beginnt bei null.',
    );
    await screenshot(page, 'de-leave-question');
    await page.keyboard.press('Escape');
    await own.getByTestId('leave-confirm').waitFor({ state: 'detached' });
    // The card puts the focus back after it has drawn itself without the question.
    await own.locator('button:focus', { hasText: 'Verlassen' }).waitFor();
  });

  it('shows the badge still to earn, locked, with the progress toward it', async () => {
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Profil' }).click();
    const locked = page.getByTestId('locked-badge');
    await locked.waitFor();
    expect(await locked.innerText()).toContain(`Abzeichen für „Zehn Schüsse ${tag}“`);
    // The badge's own name and artwork, not a generic star.
    expect(await locked.innerText()).toContain('Zielsicher');
    const art = locked.getByTestId('badge-art');
    expect(await art.locator('path').getAttribute('d')).toBe(iconPath('zap'));
    expect(await art.locator('circle').nth(1).getAttribute('fill')).toBe('#2e7d32');
    expect(await locked.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
    await screenshot(page, 'de-profile');
  });

  it('keeps the focus on an inbox entry after "Als gelesen markieren"', async () => {
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Postfach' }).click();
    await page.getByRole('button', { name: 'Als gelesen markieren: Willkommen im Verein' }).click();
    await page.locator('button:focus[aria-label="Löschen: Willkommen im Verein"]').waitFor();
    await screenshot(page, 'de-inbox');
  });

  it('keeps email switches off and says why until an email address is confirmed', async () => {
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Einstellungen' }).click();
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    const reason = form.getByTestId('email-unavailable');
    expect(await reason.innerText()).toBe('Die E-Mail-Schalter wirken, sobald du oben eine E-Mail-Adresse bestätigt hast.');
    const email = form.getByRole('switch', { name: 'E-Mail-Benachrichtigungen' });
    expect([await email.isChecked(), await email.isDisabled(), await email.getAttribute('aria-describedby')]).toEqual([
      false,
      true,
      'email-unavailable',
    ]);
    expect(await form.getByRole('switch', { name: 'Per Push erinnern' }).isDisabled()).toBe(false);
    expect(await page.getByTestId('push-device-state').innerText()).toBe(
      'Nicht verfügbar: Push an Browser ist für diesen Dienst noch nicht eingerichtet. E-Mails und das Postfach erreichen dich weiterhin.',
    );
    await screenshot(page, 'de-settings');
  });

  it('tells an iPhone browser tab how push can work: from the Home Screen', async () => {
    const iphone = await rig.newPage({ locale: 'de-DE', width: 390 });
    await iphone.addInitScript(`Object.defineProperty(navigator, 'userAgent', { get: () => ${JSON.stringify(IPHONE)} });
      delete window.PushManager;`);
    await signInGerman(iphone, rig.host.url, await tokenFor(member), '#/settings');
    const state = iphone.getByTestId('push-device-state');
    await state.waitFor();
    expect(await state.innerText()).toBe(
      'Auf iPhone und iPad geht Push nur vom Home-Bildschirm: tippe auf Teilen, dann „Zum Home-Bildschirm“, öffne die App von dort und schalte dies ein.',
    );
    expect(await iphone.getByTestId('push-device-switch').isDisabled()).toBe(true);
    await screenshot(iphone, 'de-push-iphone');
    await iphone.close();
  });

  it('is installable: the page names a manifest whose icons Chromium loads', async () => {
    const session = await page.context().newCDPSession(page);
    const manifest = (await session.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data: string };
    expect([manifest.url.endsWith('/app/manifest.json'), manifest.errors]).toEqual([true, []]);
    const data = JSON.parse(manifest.data) as {
      start_url: string;
      scope: string;
      display: string;
      icons: { src: string; sizes: string }[];
    };
    expect([data.start_url, data.scope, data.display]).toEqual(['/app/', '/app/', 'standalone']);
    for (const icon of data.icons) {
      const response = await rig.host.request('GET', `/app/${icon.src}`);
      expect([icon.src, response.status]).toEqual([icon.src, 200]);
    }
    expect(data.icons.some((icon) => icon.sizes === '512x512')).toBe(true);
    await session.detach();
  });

  it('shows no English phrase on any German screen, and no German phrase on any English one', async () => {
    const english = phrasesOnlyIn('en');
    const german = phrasesOnlyIn('de');
    const screens = [
      // Searched for this file's challenges: other files' challenges in the same database have English titles.
      [`challenges?tab=global&q=${tag}`, 'challenges'],
      ['challenges?tab=club', 'challenges-club'],
      [`challenges?tab=personal&q=${tag}`, 'challenges-personal'],
      [`leaderboard/${challengeId}?board=club`, 'leaderboard'],
      ['profile', 'profile'],
      ['inbox', 'inbox'],
      ['settings', 'settings'],
      ['shooter', 'shooter'],
      ['clubs', 'clubs'],
      [`club/${clubId}`, 'club'],
      [`member/${leader}`, 'member'],
      ['join?code=', 'join'],
    ] as const;
    const DATA = [`Zehn Schüsse ${tag}`, 'Zehn Schüsse im Verein', 'Willkommen im Verein'];
    for (const [language, phrases] of [
      ['de', english],
      ['en', german],
    ] as const) {
      // The language the member chose, as the app keeps it for the next visit.
      await page.evaluate(`localStorage.setItem('app.language', '${language}')`);
      await page.reload();
      for (const [hash, name] of screens) {
        await page.goto(`${rig.host.url}/app/#/${hash}`);
        await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
        await page.locator('main h1').waitFor();
        await page.getByTestId('loading').first().waitFor({ state: 'detached' });
        // What members wrote (the challenge, the inbox entry) is German in both, and people's names
        // (other files' members share the database's ladders) are theirs: neither is the app's text.
        const shownText = await page.evaluate<string>(
          `(() => { const body = document.body.cloneNode(true); body.querySelectorAll('a.person').forEach((link) => link.remove()); document.documentElement.append(body); const text = body.innerText; body.remove(); return text; })()`,
        );
        const text = DATA.reduce((shown, data) => shown.replaceAll(data, ''), shownText);
        expect([language, hash, phrasesShown(text, phrases)]).toEqual([language, hash, []]);
        if (language === 'de') await screenshot(page, `de-${name}`);
      }
    }
    await page.evaluate(`localStorage.setItem('app.language', 'de')`);
  });

  it('shows a member with no club how to join one', async () => {
    const newcomer = await rig.newPage({ locale: 'de-DE', width: 390 });
    await signInGerman(newcomer, rig.host.url, await tokenFor(unique('neu')), '#/challenges?tab=club');
    const empty = newcomer.getByTestId('empty');
    await empty.getByRole('link', { name: 'Einem Verein beitreten' }).waitFor();
    expect(await empty.locator('p').innerText()).toContain('Du bist noch in keinem Verein.');
    await screenshot(newcomer, 'de-no-club');
    await newcomer.close();
  });
});
