import type { Page } from 'playwright-core';
import { DEMO_CLUB, DEMO_MEMBERSHIPS, seedDemo } from '../../development/demo/seed';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { createClub, makeChallenge, unique } from '../challenges/support';
import { providerSignInSettings, providerToken, startProviderProcess, type ProviderProcess } from '../support/oidcProvider';
import { tabTo } from '../support/keyboard';
import { boardRows, completionNotice, flipSharing, openBoard, openCard, progressShown, ingestShots } from './journeySupport';
import { signInGermanAtProvider, signOutAtProvider } from './startSupport';
import { card, screenshot, useAppRig } from './support';

const AUDIENCE = 'shooting-club-api';
const MEMBER = 'demo-member-1';
const OTHER = 'demo-member-2';
const PHONE = { width: 390, height: 844 };
/** The global preset the member joins: an average of 9.0 over at least 60 shots, the gold badge "Nine Club". */
const CHALLENGE_TITLE = 'Average of 9.0';

/**
 * A member's whole journey in the member app, as `npm start` offers it: the local OpenID provider
 * (its real login page, code + PKCE), the demo club seeded as `npm start` seeds it (leader, two
 * members, shots, presets, boards), shots arriving through the ingest core, and a second member
 * in a browser context of their own. One behaviour per step; the steps share the browser tabs.
 */
describe('member journey: sign in, join, progress, boards, privacy, badge, bell, invitation, sign out', () => {
  const rig = useAppRig();
  let provider: ProviderProcess;
  let restoreSettings: (() => void) | undefined;
  let page: Page;
  let other: Page;
  let challengeId: string;
  let bellBefore: number;
  const shooterOf = (userId: string) => Number(DEMO_MEMBERSHIPS.find((member) => member.userId === userId)?.shooterId);
  const app = (hash = '') => `${rig.host.url}/app/${hash}`;

  beforeAll(async () => {
    provider = await startProviderProcess({ origins: [rig.host.url], audience: AUDIENCE });
    restoreSettings = overrideSettings(providerSignInSettings(provider, AUDIENCE));
    await seedDemo(getSql());
    const [row] = await getSql()<{ id: string }[]>`select id from challenge where preset_key = 'global-average-9'`;
    if (!row) throw new Error('the demo seed made no global-average-9 challenge');
    challengeId = row.id;
  }, 120_000);
  afterAll(async () => {
    restoreSettings?.();
    await provider?.stop();
  });

  const joinedAt = async () => {
    const [row] = await getSql()<{ joinedAt: Date }[]>`
      select joined_at as "joinedAt" from challenge_participation where user_id = ${MEMBER} and challenge_id = ${challengeId}`;
    if (!row) throw new Error('no participation');
    return row.joinedAt;
  };

  /** The provider's login page, by mouse (the second member's way in). */
  it('signs in by keyboard at phone width through the provider’s login page, back on the app with no code in the address', async () => {
    page = await rig.newPage(PHONE);
    await page.goto(app('#/challenges?tab=global'));
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await tabTo(page, 'Sign in');
    await page.keyboard.press('Enter');
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await tabTo(page, 'Username');
    await page.keyboard.insertText(MEMBER);
    await tabTo(page, 'Password');
    await page.keyboard.insertText('demo');
    await screenshot(page, 'journey-01-login');
    const bellRead = page.waitForResponse((response) => response.url().includes('/api/notifications?limit=1'));
    await page.keyboard.press('Enter');

    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(page.url()).toBe(app('#/challenges?tab=global'));
    const stored = await page.evaluate<{ sub: string; refreshToken?: string } | null>(
      `JSON.parse(sessionStorage.getItem('signin.app.tokens') ?? 'null')`,
    );
    expect(stored?.sub).toBe(MEMBER);
    expect(typeof stored?.refreshToken).toBe('string');
    await page.getByTestId('challenge-card').first().waitFor();
    // The demo's own completions may have left unread notifications: the bell counts from there.
    bellBefore = ((await (await bellRead).json()) as { unreadCount: number }).unreadCount;
    await page.getByRole('link', { name: `Notifications: ${bellBefore} unread` }).waitFor();
    await screenshot(page, 'journey-02-signed-in');
  });

  it('joins a challenge by keyboard; the sharing switches start from the member’s sharing preferences', async () => {
    await tabTo(page, 'Search');
    await page.keyboard.insertText(CHALLENGE_TITLE);
    // The list before the search holds the card too: wait for the search's answer.
    const searched = page.waitForResponse((response) => response.url().includes('/api/challenges?') && response.url().includes('search='));
    await page.keyboard.press('Enter');
    await searched;
    const joined = card(page, challengeId);
    await joined.waitFor();
    expect(await page.getByTestId('challenge-card').count()).toBe(1);
    await tabTo(page, 'Join');
    await page.keyboard.press('Enter');
    await joined.getByText('Joined: progress appears after your next training session.').waitFor();
    expect(await joined.getByRole('button', { name: 'Leave' }).count()).toBe(1);
    // demo-member-1 shares within the club and globally (the demo's sharing preferences).
    expect(await joined.getByRole('switch', { name: 'Share within my club' }).isChecked()).toBe(true);
    expect(await joined.getByRole('switch', { name: 'Share globally' }).isChecked()).toBe(true);
    await screenshot(page, 'journey-03-joined');
  });

  it('shows the progress on the card after shots arrive through the ingest core', async () => {
    await ingestShots({ shooterId: shooterOf(MEMBER), from: await joinedAt(), values: Array<number>(30).fill(9.5), series: 101 });
    // Above the target already, but only half of the 60 shots the average needs.
    expect(await progressShown(page, challengeId, 'Progress: 9.5 of 9')).toBe('50');
    await screenshot(page, 'journey-04-progress');
  });

  it('toggles the leaderboard between global and club and shows the member’s own row', async () => {
    await card(page, challengeId).getByRole('link', { name: 'Leaderboard' }).click();
    expect(await boardRows(page)).toEqual([MEMBER]);
    expect(await page.getByTestId('board-global').getAttribute('aria-current')).toBe('true');
    expect(await page.locator('tr.own').getAttribute('data-user')).toBe(MEMBER);
    expect(await page.getByTestId('leaderboard').getByRole('status').innerText()).toBe('Your place: 1');

    await openBoard(page, 'club');
    expect(await page.getByTestId('board-club').getAttribute('aria-current')).toBe('true');
    expect(await boardRows(page)).toEqual([MEMBER]);
    expect(await page.locator('tr.own').getAttribute('data-user')).toBe(MEMBER);
    await screenshot(page, 'journey-05-leaderboard-club');
  });

  it('lets the privacy switches decide what another member sees on the boards', async () => {
    // The other member: a browser context of their own (German), signed in at the provider.
    other = await rig.newPage({ locale: 'de-DE', ...PHONE });
    await signInGermanAtProvider(other, app(`#/leaderboard/${challengeId}?board=global`), OTHER);
    expect(await boardRows(other)).toEqual([MEMBER]);

    const joined = await openCard(page, app('#/challenges?tab=global'), challengeId);
    for (const label of ['Share within my club', 'Share globally']) await flipSharing(page, joined, label);
    // The card shows a switch's new state once it has read the answer, a moment after the response
    // arrives: wait for both switches to read off (a switch that stays on times out).
    await joined.getByRole('switch', { name: 'Share globally', checked: false }).waitFor();
    await joined.getByRole('switch', { name: 'Share within my club', checked: false }).waitFor();

    await other.reload();
    expect(await boardRows(other)).toEqual([]);
    await openBoard(other, 'club');
    expect(await boardRows(other)).toEqual([]);
    await screenshot(other, 'journey-06-other-sees-nothing');

    // Within the club again: the club board shows the member to the other, the global one does not.
    await flipSharing(page, joined, 'Share within my club');
    await other.reload();
    expect(await boardRows(other)).toEqual([MEMBER]);
    await openBoard(other, 'global');
    expect(await boardRows(other)).toEqual([]);
    await screenshot(other, 'journey-07-other-global');
  });

  it('completes the challenge with the next shots and shows the earned badge on the profile', async () => {
    await ingestShots({
      shooterId: shooterOf(MEMBER),
      from: new Date(Date.now() - 1000),
      values: Array<number>(30).fill(9.4),
      series: 104,
    });
    await page.reload();
    await card(page, challengeId).getByTestId('progress').getByText('Completed').waitFor();

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Profile' }).click();
    const gold = page.getByTestId('badge-group').filter({ has: page.getByRole('heading', { name: 'Gold' }) });
    const badge = gold.locator('[data-testid="badge"][data-key="nine-club"]');
    await badge.waitFor();
    expect(await badge.innerText()).toContain('Nine Club');
    expect(await badge.innerText()).toContain(CHALLENGE_TITLE);
    await screenshot(page, 'journey-08-badge');
  });

  it('rings the bell with the completion, and the inbox lists it', async () => {
    expect(await completionNotice(page, bellBefore + 1, CHALLENGE_TITLE)).toContain('You earned +750 XP and badge "Nine Club".');
    await screenshot(page, 'journey-09-inbox');
  });

  it('lets a leader invite; the invited member accepts the code and sees the club’s challenges', async () => {
    // A second club: a platform admin makes demo-leader its first leader, who invites.
    const club = await createClub();
    const clubChallenge = await makeChallenge({ scope: 'club', clubId: club.clubId, title: unique('Club evening') });
    const call = async (user: string, method: string, path: string, body?: unknown) =>
      fetch(`${rig.host.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await providerToken(provider, rig.host.url, user)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await call('demo-leader', 'POST', `/api/clubs/${club.clubId}/invitations`, {})).status).toBe(403);
    expect((await call('demo-admin', 'PUT', `/api/clubs/${club.clubId}/leaders/demo-leader`)).status).toBe(201);
    const invited = await call('demo-leader', 'POST', `/api/clubs/${club.clubId}/invitations`, { expiresInHours: 24 });
    expect(invited.status).toBe(201);
    const { code } = (await invited.json()) as { code: string };

    await other.goto(app('#/challenges?tab=club'));
    await other.getByTestId('challenge-card').first().waitFor();
    expect(await card(other, clubChallenge.id).count()).toBe(0);

    await other.goto(app(`#/join?code=${encodeURIComponent(code)}`));
    expect(await other.getByLabel('Einladungscode').inputValue()).toBe(code);
    await other.getByRole('button', { name: 'Einladung annehmen' }).click();
    await other.getByText('Du bist jetzt Mitglied des Vereins.', { exact: false }).waitFor();
    await screenshot(other, 'journey-10-invitation-accepted');
    await other.goto(app('#/challenges?tab=club'));
    await card(other, clubChallenge.id).waitFor();
    // Still a member of the demo club too: its challenges stay on the club tab.
    const [demoChallenge] = await getSql()<{ id: string }[]>`
      select id from challenge where preset_key = ${`club-shots-1000@${DEMO_CLUB.id}`}`;
    await card(other, demoChallenge!.id).waitFor();
    await screenshot(other, 'journey-11-club-tab');
    await other.close();
  });

  it('signs out at the app and the provider: the tokens are gone and the next sign-in asks for the password again', async () => {
    await signOutAtProvider(page);
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    await screenshot(page, 'journey-12-signed-out');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.close();
  });

  it('shows a sign-in answer this tab did not start as a failure, once, with the code gone from the address', async () => {
    const tab = await rig.newPage(PHONE);
    await tab.goto(app('?code=forged-code&state=forged-state'));
    const failure = tab.getByTestId('signin-failed');
    await failure.waitFor();
    expect(await failure.innerText()).toBe('Signing in did not work: This tab did not start the sign-in the answer belongs to. Try again.');
    expect(tab.url()).toBe(app());
    expect(await tab.evaluate("sessionStorage.getItem('signin.app.tokens')")).toBeNull();
    await screenshot(tab, 'journey-13-forged-answer');
    await tab.reload();
    await tab.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await tab.getByTestId('signin-failed').count()).toBe(0);
    await tab.close();
  });

  it('offers the developer token paste beside the provider, collapsed, when the service says so', async () => {
    const tab = await rig.newPage(PHONE);
    await tab.goto(app());
    await tab.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // AUTH_TOKEN_PASTE is off for this journey: no paste at all.
    expect(await tab.getByText('Developer: paste a token').count()).toBe(0);

    const restore = overrideSettings({ AUTH_TOKEN_PASTE: 'true' });
    try {
      await tab.reload();
      await tab.getByText('Developer: paste a token').click();
      await tab.getByLabel('Bearer token').fill(await providerToken(provider, rig.host.url, MEMBER));
      await tab.getByRole('button', { name: 'Use this token' }).click();
      await tab.getByRole('navigation', { name: 'Main navigation' }).waitFor();
      expect(await tab.evaluate<string | undefined>(`JSON.parse(sessionStorage.getItem('signin.app.tokens')).sub`)).toBe(MEMBER);
    } finally {
      restore();
    }
    await tab.close();
  });
});
