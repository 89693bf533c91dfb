import type { Page } from 'playwright-core';
import * as v from 'valibot';
import { upsertChallenge } from '../../shared/challenges/challengeRepository';
import { RulesSchema } from '../../shared/challenges/rules';
import { providerToken } from '../support/oidcProvider';
import { boardRows, completionNotice, flipSharing, openBoard, openCard, progressShown } from './journeySupport';
import { startApp, type StartedApp } from './startProcess';
import { demoShooterOf, shootAtStart, signInAtProvider, signInGermanAtProvider, signOutAtProvider } from './startSupport';
import { card, openBrowsers, screenshot } from './support';

const MEMBER = 'demo-member-1';
const OTHER = 'demo-member-2';
const LEADER = 'demo-leader';
const PHONE = { width: 390, height: 844 };
/** The demo's global preset: an average of 9.0 over at least 60 shots, the gold badge "Nine Club". */
const CHALLENGE_TITLE = 'Average of 9.0';

/**
 * The "done means", against `npm start` itself (the process a newcomer runs): its local
 * OpenID provider's login page, its demo club, shots sent to its local Event Hubs endpoint and
 * taken in by its event trigger, the progress timer run as the Core Tools run one
 * (`POST /admin/functions/challengeProgress`; its schedule is every 15 minutes), and three people
 * in browsers of their own: the member, another member (German) and the club's leader.
 */
// Each step waits on a browser and a busy process, beyond the suite's 30 s default.
jest.setTimeout(60_000);

describe('member journey against npm start', () => {
  const browsers = openBrowsers();
  let started: StartedApp;
  let page: Page;
  let other: Page;
  let challengeId: string;
  let bellBefore: number;
  let series = 201;
  const app = (hash = '') => `${started.url}/app/${hash}`;

  beforeAll(async () => {
    started = await startApp({ AUTH_TOKEN_PASTE: 'false' });
    const [row] = await started.sql<{ id: string }[]>`select id from challenge where preset_key = 'global-average-9'`;
    if (!row) throw new Error('npm start seeded no global-average-9 challenge');
    challengeId = row.id;
  }, 90_000);
  afterAll(async () => {
    await browsers.close();
    await started?.stop();
  }, 30_000);

  /** Shots of the member since `from`, through the start's hub and its progress timer. */
  async function shoot(values: readonly number[], from: Date): Promise<void> {
    await shootAtStart(started, { shooterId: demoShooterOf(MEMBER), from, values, series });
    series += Math.ceil(values.length / 10);
  }

  it('signs the member in through the provider’s login page and shows the demo’s challenges', async () => {
    page = await browsers.newPage('member', PHONE);
    await page.goto(app('#/challenges?tab=global'));
    const bellRead = page.waitForResponse((response) => response.url().includes('/api/notifications?limit=1'));
    await signInAtProvider(page, MEMBER, 'Sign in');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(page.url()).toBe(app('#/challenges?tab=global'));
    await page.getByTestId('challenge-card').first().waitFor();
    bellBefore = ((await (await bellRead).json()) as { unreadCount: number }).unreadCount;
    await page.getByRole('link', { name: `Notifications: ${bellBefore} unread` }).waitFor();
    await screenshot(page, 'start-01-signed-in');
  });

  it('joins a challenge found by search', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill(CHALLENGE_TITLE);
    const searched = page.waitForResponse((response) => response.url().includes('/api/challenges?') && response.url().includes('search='));
    await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
    await searched;
    const joined = card(page, challengeId);
    await joined.getByRole('button', { name: 'Join' }).click();
    await joined.getByText('Joined: progress appears after your next training session.').waitFor();
    expect(await joined.getByRole('switch', { name: 'Share globally' }).isChecked()).toBe(true);
    await screenshot(page, 'start-02-joined');
  });

  it('shows progress after simulated shots arrive through the local hub', async () => {
    const [joined] = await started.sql<{ joinedAt: Date }[]>`
      select joined_at as "joinedAt" from challenge_participation where user_id = ${MEMBER} and challenge_id = ${challengeId}`;
    await shoot(Array<number>(30).fill(9.5), joined!.joinedAt);
    expect(await progressShown(page, challengeId, 'Progress: 9.5 of 9')).toBe('50');
    await screenshot(page, 'start-03-progress');
  });

  it('toggles the leaderboard between global and club, the member’s row marked', async () => {
    await card(page, challengeId).getByRole('link', { name: 'Leaderboard' }).click();
    expect(await boardRows(page)).toEqual([MEMBER]);
    expect(await page.locator('tr.own').getAttribute('data-user')).toBe(MEMBER);
    await openBoard(page, 'club');
    expect(await page.getByTestId('board-club').getAttribute('aria-current')).toBe('true');
    expect(await boardRows(page)).toEqual([MEMBER]);
    await screenshot(page, 'start-04-leaderboard-club');
  });

  it('lets the privacy switches decide what another member sees', async () => {
    other = await browsers.newPage('other', { locale: 'de-DE', ...PHONE });
    await signInGermanAtProvider(other, app(`#/leaderboard/${challengeId}?board=global`), OTHER);
    expect(await boardRows(other)).toEqual([MEMBER]);

    const joined = await openCard(page, app('#/challenges?tab=global'), challengeId);
    for (const label of ['Share within my club', 'Share globally']) await flipSharing(page, joined, label);
    await other.reload();
    expect(await boardRows(other)).toEqual([]);
    await screenshot(other, 'start-05-other-sees-nothing');

    await flipSharing(page, joined, 'Share within my club');
    await openBoard(other, 'club');
    expect(await boardRows(other)).toEqual([MEMBER]);
    await openBoard(other, 'global');
    expect(await boardRows(other)).toEqual([]);
    await screenshot(other, 'start-06-other-club-only');
  });

  it('completes the challenge with the next shots: the badge on the profile, the bell and the inbox', async () => {
    await shoot(Array<number>(30).fill(9.4), new Date(Date.now() - 1000));
    await page.reload();
    await card(page, challengeId).getByTestId('progress').getByText('Completed').waitFor();

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Profile' }).click();
    const badge = page.locator('[data-testid="badge"][data-key="nine-club"]');
    await badge.waitFor();
    expect(await badge.innerText()).toContain('Nine Club');
    await screenshot(page, 'start-07-badge');

    expect(await completionNotice(page, bellBefore + 1, CHALLENGE_TITLE)).toContain('You earned +750 XP and badge "Nine Club".');
    await screenshot(page, 'start-08-inbox');
  });

  it('lets the other member open the member’s page from the club board: XP, tier and the badge they share with the club', async () => {
    await other.goto(app(`#/leaderboard/${challengeId}?board=club`));
    // People appear by name and avatar, never by id: the row is found by its data.
    await other.getByTestId('leaderboard').locator(`tr[data-user="${MEMBER}"]`).getByRole('link').click();
    await other.getByTestId('member-page').waitFor();
    expect(other.url()).toContain(`#/member/${MEMBER}`);
    expect(await other.getByRole('heading', { level: 1 }).innerText()).not.toContain(MEMBER);
    await other.locator('[data-testid="badge"][data-key="nine-club"]').waitFor();
    expect(await other.getByTestId('member-standing').innerText()).toContain('XP');
    await screenshot(other, 'start-09-member-page');
  });

  it('lets the leader invite on the club screen; the other member accepts the link and sees the club’s challenges', async () => {
    // A second club (its master data as a box would sync it) with a club challenge; a platform
    // admin makes demo-leader its first leader.
    const clubId = `journey-club-${Date.now().toString(36)}`;
    await started.sql`insert into club (id, name, vereins_id) values (${clubId}, 'Gilde am See', ${String(880_000 + (Date.now() % 100_000))})`;
    const clubChallenge = await upsertChallenge(started.sql, {
      scope: 'club',
      clubId,
      personalizedForUserId: null,
      title: 'Club evening at the lake',
      description: null,
      difficulty: 'easy',
      durationDays: 30,
      endsAt: null,
      lowerLevel: null,
      upperLevel: null,
      defaultVisibility: 'private',
      rewardXp: 100,
      priceCents: null,
      createdBy: 'journey',
      rules: v.parse(RulesSchema, { goal: { metric: 'shots', target: 100 } }),
    });
    const adminToken = await providerToken({ issuer: started.issuer }, started.url, 'demo-admin');
    const made = await fetch(`${started.url}/api/clubs/${clubId}/leaders/${LEADER}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(made.status).toBe(201);

    const leader = await browsers.newPage('leader', PHONE);
    await leader.goto(app(`#/club/${clubId}`));
    await signInAtProvider(leader, LEADER, 'Sign in');
    await leader.getByLabel('Valid for (hours, optional)').fill('24');
    await leader.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await leader.getByTestId('invitation-link').inputValue();
    expect(link.startsWith(app('#/join?code='))).toBe(true);
    await screenshot(leader, 'start-10-leader-invites');

    await other.goto(link);
    await other.getByRole('button', { name: 'Einladung annehmen' }).click();
    await other.getByText('Du bist jetzt Mitglied des Vereins.', { exact: false }).waitFor();
    await other.goto(app('#/challenges?tab=club'));
    await card(other, clubChallenge.id).waitFor();
    await screenshot(other, 'start-11-club-tab');

    await leader.reload();
    await leader.getByTestId('members').locator(`[data-testid="member"][data-user="${OTHER}"]`).waitFor();
    await leader.close();
  });

  it('signs the member out at the app and the provider', async () => {
    await signOutAtProvider(page);
    await screenshot(page, 'start-12-signed-out');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).origin).toBe(started.issuer);
  });
});
