import type { Page } from 'playwright-core';
import { evaluateParticipation } from '../../shared/challenges/progress';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, ensureBadge, hitsOn, insertHits, linkShooter, makeChallenge, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { card, focusAfterRender, screenshot, signIn, useAppRig } from './support';

/**
 * The member app's screens driven in headless Chromium against the local host and a database
 * seeded through the same repositories the service uses: challenges (tabs, search, filters,
 * join, progress, leave, privacy), leaderboards, profile, inbox and notification settings.
 */
describe('member app screens', () => {
  const rig = useAppRig();
  const tag = unique('tag');
  const first = `first-${tag}`;
  const second = `second-${tag}`;
  const badgeKey = `b-${tag}`.toLowerCase().slice(0, 40);
  let club: { clubId: string; clubNumber: string };
  let shooter: Record<string, string>;
  let globalId: string;
  let clubId: string;
  let page: Page;

  const days = (n: number) => new Date(Date.now() - n * 86_400_000);
  async function participationOf(userId: string, challengeId: string): Promise<string> {
    const [row] = await getSql()<{ id: string }[]>`
      select id from challenge_participation where user_id = ${userId} and challenge_id = ${challengeId}`;
    if (!row) throw new Error(`no participation of ${userId} in ${challengeId}`);
    return row.id;
  }
  /** Shots after joining, then the evaluation the progress timer runs. */
  async function shoot(userId: string, challengeId: string, count: number): Promise<void> {
    await insertHits(club.clubNumber, shooter[userId]!, hitsOn(new Date(), count, 9.5));
    await evaluateParticipation(getSql(), await participationOf(userId, challengeId), new Date(Date.now() + 3_600_000));
  }

  beforeAll(async () => {
    club = await createClub();
    await addMember(club.clubId, first);
    await addMember(club.clubId, second);
    shooter = { [first]: await linkShooter(club, first), [second]: await linkShooter(club, second) };
    // Four earlier training evenings: enough history for an adaptive goal.
    for (const n of [20, 15, 10, 5]) await insertHits(club.clubNumber, shooter[first]!, hitsOn(days(n), 30, 9));
    await ensureBadge(badgeKey, 'gold');
    globalId = (
      await makeChallenge({
        title: `Ten shots ${tag}`,
        rewardXp: 600,
        rules: { goal: { metric: 'shots', target: 10 }, rewardBadge: badgeKey },
      })
    ).id;
    clubId = (
      await makeChallenge({
        scope: 'club',
        clubId: club.clubId,
        title: `Club thousand ${tag}`,
        rewardXp: 800,
        rules: { goal: { metric: 'shots', target: 1000 } },
      })
    ).id;
    page = await rig.newPage();
    await signIn(page, rig.host.url, await tokenFor(first));
  }, 60_000);

  /** Searches and waits for the answer: the list before it may hold the card too (a seeded database has many challenges). */
  const search = async (text: string) => {
    await page.getByLabel('Search', { exact: true }).fill(text);
    const searched = page.waitForResponse((response) => response.url().includes('/api/challenges?') && response.url().includes('search='));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await searched;
  };

  it('lists the global challenges with scope badge, goal, XP reward and a call to action; search and filters narrow them', async () => {
    await search(tag);
    const global = card(page, globalId);
    await global.waitFor();
    expect(await page.getByTestId('challenge-card').count()).toBe(1);
    expect(await global.locator('.badge-global').innerText()).toBe('Global');
    expect(await global.getByTestId('goal').innerText()).toBe('Goal: 10 shots');
    expect(await global.locator('.xp').innerText()).toBe('600 XP');
    expect(await global.getByRole('button', { name: 'Join' }).count()).toBe(1);
    await screenshot(page, 'challenges-global');

    await page.getByLabel('Status').selectOption('active');
    await page.getByTestId('empty').waitFor();
    expect(await page.getByTestId('empty').innerText()).toBe('No challenge matches the search or filters.');
    await screenshot(page, 'challenges-empty');
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Difficulty').selectOption('hard');
    await page.getByTestId('empty').waitFor();
    await page.getByLabel('Difficulty').selectOption('medium');
    await global.waitFor();
  });

  it('joins a challenge, then the card shows the progress after shots and the completion', async () => {
    const global = card(page, globalId);
    await global.getByRole('button', { name: 'Join' }).click();
    await global.getByText('Joined: progress appears after your next training session.').waitFor();
    expect(await global.getByRole('button', { name: 'Leave' }).count()).toBe(1);
    expect(await global.getByRole('switch', { name: 'Share globally' }).isChecked()).toBe(false);

    await shoot(first, globalId, 6);
    await page.reload();
    await global.getByText('Progress: 6 of 10').waitFor();
    expect(await global.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
    await screenshot(page, 'challenge-progress');

    await shoot(first, globalId, 5);
    await page.reload();
    await global.getByTestId('progress').getByText('Completed').waitFor();
    expect(await global.getByRole('button', { name: 'Join' }).count()).toBe(0);
    await page.getByRole('link', { name: /^Notifications: [1-9]\d* unread$/ }).waitFor();
    // The moment of completion: celebrated once, with what it earned, not again after a reload.
    const celebration = page.getByTestId('celebration');
    expect(await celebration.innerText()).toContain(`“Ten shots ${tag}”: +600 XP.`);
    // The badge this completion earned, in its own artwork and named, instead of the trophy.
    expect(await celebration.getByRole('img', { name: `Badge ${badgeKey}` }).count()).toBe(1);
    await screenshot(page, 'challenge-celebration');
    await celebration.getByRole('button', { name: 'Close' }).click();
    await celebration.waitFor({ state: 'detached' });
    await page.reload();
    await global.getByTestId('progress').getByText('Completed').waitFor();
    expect(await celebration.count()).toBe(0);
  });

  it('shows the club tab with team progress, and leaving a challenge offers to join again', async () => {
    await page.getByRole('link', { name: 'Club', exact: true }).click();
    await search(tag);
    const clubCard = card(page, clubId);
    await clubCard.waitFor();
    expect(await clubCard.locator('.badge-club').innerText()).toBe('Club');
    await clubCard.getByRole('button', { name: 'Join' }).click();
    await clubCard.getByRole('button', { name: 'Leave' }).waitFor();
    await shoot(first, clubId, 4);
    await page.reload();
    await clubCard.getByTestId('team-progress').waitFor();
    // Alone on the team so far: the team's sum is the member's own progress.
    const own = /^Progress: (\d+) of 1,000/.exec(await clubCard.getByTestId('progress').innerText())?.[1];
    expect(Number(own)).toBeGreaterThanOrEqual(4);
    expect(await clubCard.getByTestId('team-progress').locator('p').allInnerTexts()).toEqual([
      'Team progress',
      `Sum: ${own} · 1 taking part · 0 completed`,
    ]);
    await screenshot(page, 'challenges-club');
    // Leaving asks first, saying what is lost; cancelling keeps everything and the focus on "Leave".
    await clubCard.getByRole('button', { name: 'Leave' }).click();
    const question = clubCard.getByTestId('leave-confirm');
    expect(await question.locator('p').innerText()).toBe(
      `Leave this challenge? Your progress is lost: ${own} of 1,000 shots. Joining again starts from zero.`,
    );
    await clubCard.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await focusAfterRender(page, 'document.activeElement?.textContent', 'Leave')).toBe('Leave');
    await clubCard.getByRole('button', { name: 'Leave' }).click();
    await clubCard.getByRole('button', { name: 'Yes, leave' }).click();
    await clubCard.getByRole('button', { name: 'Join again' }).waitFor();
    expect(await clubCard.getByTestId('progress').innerText()).toMatch(/^Left/);
    // The focus stays on the card, on what took the place of "Leave"; the team box is read again.
    expect(await focusAfterRender(page, 'document.activeElement?.textContent', 'Join again')).toBe('Join again');
    await clubCard.getByTestId('team-progress').getByText('Sum: 0 · 0 taking part · 0 completed').waitFor();
  });

  it('toggles the leaderboard between global and club, with the own row; sharing decides what another member sees', async () => {
    // The second member joins and shoots too, sharing nothing yet.
    const other = await rig.newPage();
    await signIn(other, rig.host.url, await tokenFor(second));
    await other.getByLabel('Search', { exact: true }).fill(tag);
    await other.getByRole('button', { name: 'Search', exact: true }).click();
    await card(other, globalId).getByRole('button', { name: 'Join' }).click();
    await card(other, globalId).getByRole('button', { name: 'Leave' }).waitFor();
    await shoot(second, globalId, 3);

    await other.goto(`${rig.host.url}/app/#/leaderboard/${globalId}?board=global`);
    await other.getByTestId('leaderboard').waitFor();
    const rowsSeenByOther = async () =>
      Promise.all((await other.getByTestId('board-row').all()).map((row) => row.getAttribute('data-user')));
    // The first member completed the challenge privately: the other member sees only themself.
    expect(await rowsSeenByOther()).toEqual([second]);
    expect(await other.locator('tr.own').innerText()).toContain('only you see this row');

    await page.getByRole('link', { name: 'Global', exact: true }).click();
    await search(tag);
    const shared = page.waitForResponse((response) => response.url().includes('/visibility'));
    await card(page, globalId).getByText('Share globally').click();
    expect((await shared).status()).toBe(200);
    await card(page, globalId).locator('input[data-testid="share-global"]:checked').waitFor();

    await other.reload();
    await other.getByTestId('leaderboard').waitFor();
    expect(await rowsSeenByOther()).toEqual([first, second]);
    await screenshot(other, 'leaderboard-global');

    await other.getByTestId('board-club').click();
    await other.locator('[data-testid="leaderboard"][data-board="club"]').waitFor();
    // Shared globally counts for the club board too; the other member still sees their own row.
    expect(await rowsSeenByOther()).toEqual([first, second]);
    expect(await other.getByTestId('board-club').getAttribute('aria-current')).toBe('true');
    await screenshot(other, 'leaderboard-club');
    await other.close();
  });

  it('shows XP, tier, progress to the next tier, the earned badge by quality and the recent completion with its leaderboard', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByTestId('standing').waitFor();
    expect(await page.getByTestId('standing').innerText()).toMatch(/600\s+XP/);
    expect(await page.getByTestId('standing').innerText()).toContain('Tier: Bronze');
    expect(await page.getByTestId('standing').innerText()).toContain('900 XP to Silver');
    expect(await page.getByTestId('standing').getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10');
    const group = page.getByTestId('badge-group').filter({ has: page.getByRole('heading', { name: 'Gold' }) });
    expect(await group.getByTestId('badge').getAttribute('data-key')).toBe(badgeKey);
    expect(await group.getByTestId('badge').innerText()).toContain(`Ten shots ${tag}`);
    // The badge is artwork with a text alternative naming it and its quality.
    expect(await group.getByTestId('badge').getByRole('img').getAttribute('aria-label')).toMatch(/^Badge “.+”, Gold$/);
    await page.getByTestId('ladder').getByTestId('ladder-row').first().waitFor();
    await screenshot(page, 'profile');
    await page.getByTestId('completions').getByRole('link', { name: 'Leaderboard: Global' }).click();
    await page.getByTestId('leaderboard').waitFor();
    expect(page.url()).toContain(`#/leaderboard/${globalId}?board=global`);
    expect(await page.locator('tr.own').innerText()).toContain('You');
    // The board names its challenge and the unit of its score.
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Ten shots ${tag}`);
    expect(await page.getByTestId('board-about').innerText()).toBe('Leaderboard · Ranked by: Shots');
    expect(await page.getByRole('columnheader', { name: 'Shots' }).count()).toBe(1);
  });

  it('creates and regenerates the member’s own adaptive goal with its recommended target', async () => {
    await page.goto(`${rig.host.url}/app/#/challenges?tab=personal`);
    await page.getByLabel('Measure').selectOption('shots');
    await page.getByRole('button', { name: 'Create my goal' }).click();
    const recommendation = page.getByTestId('recommendation').first();
    await recommendation.waitFor();
    expect(await recommendation.innerText()).toMatch(/^Recommended target [\d,.]+: 5 % above your average of [\d,.]+ \([4-9] sessions\)$/);
    await screenshot(page, 'challenges-personal');
    const personal = page.getByTestId('challenge-card').filter({ has: recommendation });
    const regenerated = page.waitForResponse((response) => response.url().endsWith('/api/challenges/personalize/me'));
    await personal.getByRole('button', { name: 'Regenerate goal' }).click();
    expect((await regenerated).status()).toBe(200);
    // Regenerating replaces the goal in place: still one adaptive goal (the personal presets a
    // seeded database holds may stand beside it on the tab).
    await page.reload();
    await page.getByTestId('recommendation').first().waitFor();
    expect(await page.getByTestId('recommendation').count()).toBe(1);
  });

  it('shows a designed error state with the backend’s words and a retry', async () => {
    await page.goto(`${rig.host.url}/app/#/leaderboard/no-such-challenge?board=global`);
    const error = page.getByTestId('error');
    await error.waitFor();
    expect(await error.innerText()).toContain('This could not be loaded.');
    expect(await error.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    await screenshot(page, 'error-state');
  });

  it('ends in "session expired" on a 401 and returns to the same screen after signing in again', async () => {
    await page.goto(`${rig.host.url}/app/#/inbox`);
    await page.getByTestId('inbox-list').or(page.getByTestId('empty')).waitFor();
    // A token the API refuses (signed with another secret), as after a key rotation or revocation.
    const refused = await tokenFor(first, { secret: 'another-secret-that-the-api-does-not-know-0123456789' });
    await page.evaluate(
      `sessionStorage.setItem('signin.app.tokens', ${JSON.stringify(JSON.stringify({ accessToken: refused, sub: first, pasted: true }))})`,
    );
    // A new page load: the session reads the stored tokens when the app starts.
    await page.goto(`${rig.host.url}/app/#/settings`);
    await page.reload();
    await page.getByTestId('expired').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Session expired');
    await screenshot(page, 'session-expired');
    await page.getByLabel('Bearer token').fill(await tokenFor(first));
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notification settings' }).waitFor();
    expect(page.url()).toContain('#/settings');
  });

  it('ends the session when the token’s own expiry has passed, before calling the API', async () => {
    const expired = await tokenFor(first, { expiresIn: Math.floor(Date.now() / 1000) - 60 });
    await page.evaluate(
      `sessionStorage.setItem('signin.app.tokens', ${JSON.stringify(JSON.stringify({ accessToken: expired, sub: first, expiresAt: Date.now() - 60_000, pasted: true }))})`,
    );
    await page.goto(`${rig.host.url}/app/#/profile`);
    await page.reload();
    await page.getByTestId('expired').waitFor();
    await page.getByLabel('Bearer token').fill(await tokenFor(first));
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByTestId('standing').waitFor();
  });

  it('signs out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('signin.app.tokens')")).toBeNull();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
  });
});
