import type { Page } from 'playwright-core';
import type { SentEmail } from '../../development/acsEmailFake/server';
import { boardRows } from './journeySupport';
import { startApp, type StartedApp } from './startProcess';
import { demoShooterOf, runTimer, shootAtStart, signInAtProvider, signInGermanAtProvider } from './startSupport';
import { card, openBrowsers, screenshot } from './support';

const MEMBER = 'demo-member-1';
const NEWCOMER = 'demo-member-2';
const LEADER = 'demo-leader';
const PHONE = { locale: 'de-DE', width: 390, height: 844 } as const;
/** The demo's global preset, as a German reader sees it: an average of 9.0 over at least 60 shots. */
const CHALLENGE_TITLE = 'Schnitt von 9,0';

/**
 * Issue 38's "done means", against `npm start` (the process a newcomer runs), at 390 px and in
 * German, as two members and the club's leader: signing in at the start's own OpenID provider, a
 * shooter record claimed and confirmed by the leader, joining, shots arriving through the start's
 * local Event Hubs endpoint, progress, the celebration, the streak, leaving behind its question,
 * names and avatars on the board, the manifest that makes the app installable, and an email
 * address confirmed by the link the start's email fake received, which then receives a
 * notification. Screenshots go to test-artifacts/app/journey-de-*.png.
 */
// Each step waits on a browser and a busy process, beyond the suite's 30 s default.
jest.setTimeout(60_000);

describe('done-means journey against npm start, German, 390 px', () => {
  const browsers = openBrowsers();
  let started: StartedApp;
  let member: Page;
  let newcomer: Page;
  let challengeId: string;
  let emailEndpoint: string;
  let series = 401;
  const address = 'anna.schuetz@verein.example';
  const app = (hash = '') => `${started.url}/app/${hash}`;
  const joinedAt = async (userId: string) => {
    const [row] = await started.sql<{ joinedAt: Date }[]>`
      select joined_at as "joinedAt" from challenge_participation where user_id = ${userId} and challenge_id = ${challengeId}`;
    return row!.joinedAt;
  };
  const shoot = async (userId: string, values: readonly number[], from: Date) => {
    await shootAtStart(started, { shooterId: demoShooterOf(userId), from, values, series });
    series += Math.ceil(values.length / 10);
  };
  /** What the start's email fake received so far, after the delivery timer ran. */
  const emailsTo = async (to: string): Promise<SentEmail[]> => {
    await runTimer(started, 'notificationDelivery');
    for (const deadline = Date.now() + 15_000; ;) {
      const { value } = (await (await fetch(`${emailEndpoint}/emails`)).json()) as { value: SentEmail[] };
      const mine = value.filter((email) => email.to.includes(to));
      if (mine.length > 0 || Date.now() > deadline) return mine;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };

  beforeAll(async () => {
    started = await startApp({ AUTH_TOKEN_PASTE: 'false' });
    const [row] = await started.sql<{ id: string }[]>`select id from challenge where preset_key = 'global-average-9'`;
    if (!row) throw new Error('npm start seeded no global-average-9 challenge');
    challengeId = row.id;
    const endpoint = /Email: +local Communication Services fake on (\S+)/.exec(started.output())?.[1];
    if (!endpoint) throw new Error(`npm start runs no local email fake:\n${started.output()}`);
    emailEndpoint = endpoint;
    // The demo seeds every member's shooter record confirmed; this one arrives without one, as a
    // newcomer does, and claims it in the app.
    await started.sql`delete from challenge_shooter_link where user_id = ${NEWCOMER}`;
  }, 90_000);
  afterAll(async () => {
    await browsers.close();
    await started?.stop();
  }, 30_000);

  it('signs a member in through the provider and shows the challenges in German', async () => {
    member = await browsers.newPage('member', PHONE);
    await signInGermanAtProvider(member, app('#/challenges?tab=global'), MEMBER);
    await card(member, challengeId).getByRole('heading', { name: CHALLENGE_TITLE }).waitFor();
    await screenshot(member, 'journey-de-01-signed-in');
  });

  it('lets the newcomer claim a shooter record that the leader confirms', async () => {
    newcomer = await browsers.newPage('newcomer', PHONE);
    await newcomer.goto(app('#/shooter'));
    await signInAtProvider(newcomer, NEWCOMER, 'Anmelden');
    const form = newcomer.getByTestId('claim-form');
    await form.getByLabel('Schützennummer').fill(String(demoShooterOf(NEWCOMER)));
    await form.getByRole('button', { name: 'Beanspruchen' }).click();
    await form.getByText('Anfrage gesendet: eine Vereinsleitung bestätigt sie.').waitFor();
    await newcomer.getByTestId('own-claims').getByText('Wartet auf die Vereinsleitung').waitFor();
    await screenshot(newcomer, 'journey-de-02-claimed');

    const leader = await browsers.newPage('leader', PHONE);
    await leader.goto(app('#/shooter'));
    await signInAtProvider(leader, LEADER, 'Anmelden');
    const claim = leader.getByTestId('leader-claims').locator(`[data-testid="pending-claim"][data-user="${NEWCOMER}"]`);
    await claim.waitFor();
    // The leader sees the claimant's name and avatar, never the account id.
    expect(await claim.innerText()).not.toContain(NEWCOMER);
    await claim.getByTestId('avatar').waitFor();
    await screenshot(leader, 'journey-de-03-leader-decides');
    await claim.getByRole('button', { name: /^Bestätigen/ }).click();
    await claim.waitFor({ state: 'detached' });
    await leader.close();

    await newcomer.reload();
    await newcomer.getByTestId('own-claims').locator('[data-status="confirmed"]').getByText('Bestätigt').waitFor();
    await screenshot(newcomer, 'journey-de-04-claim-confirmed');
  });

  it('joins, and shows progress once shots arrive through the start’s hub', async () => {
    await member.reload();
    const joined = card(member, challengeId);
    await joined.getByRole('button', { name: 'Mitmachen' }).click();
    await joined.getByRole('button', { name: 'Verlassen' }).waitFor();
    await shoot(MEMBER, Array<number>(30).fill(9.5), await joinedAt(MEMBER));
    await member.reload();
    const progress = card(member, challengeId).getByTestId('progress');
    await progress.getByRole('progressbar').waitFor();
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    await screenshot(member, 'journey-de-05-progress');
  });

  it('confirms another email address by the link the email fake received', async () => {
    await member.goto(app('#/settings'));
    const contact = member.getByTestId('contact');
    await contact.getByLabel('E-Mail-Adresse', { exact: true }).fill(address);
    await contact.getByRole('button', { name: 'Bestätigungslink senden' }).click();
    await contact.getByTestId('contact-pending').waitFor();
    const [confirmation] = await emailsTo(address);
    const link = /https?:\/\/\S*confirm-email\S*/.exec(confirmation?.plainText ?? '')?.[0];
    expect(link?.startsWith(app('#/confirm-email?token='))).toBe(true);
    await member.goto(link!);
    expect(await member.getByTestId('confirm-done').innerText()).toBe(`Danke: E-Mails gehen jetzt an ${address}.`);
    await screenshot(member, 'journey-de-06-email-confirmed');
    await member.goto(app('#/settings'));
    const emailSwitch = member.getByRole('switch', { name: 'E-Mail-Benachrichtigungen' });
    await emailSwitch.waitFor();
    expect([await emailSwitch.isDisabled(), await emailSwitch.isChecked()]).toEqual([false, true]);
  });

  it('celebrates the completed challenge once, and sends its notification to the confirmed address', async () => {
    await shoot(MEMBER, Array<number>(30).fill(9.4), new Date(Date.now() - 1000));
    await member.goto(app('#/challenges?tab=global'));
    const celebration = member.getByTestId('celebration');
    await celebration.waitFor();
    expect(await celebration.innerText()).toContain('Challenge geschafft!');
    expect(await celebration.innerText()).toContain(`„${CHALLENGE_TITLE}“: +750 XP.`);
    await screenshot(member, 'journey-de-07-celebration');
    await celebration.getByRole('button', { name: 'Schließen' }).click();
    await member.reload();
    await card(member, challengeId).waitFor();
    expect(await member.getByTestId('celebration').count()).toBe(0);

    // The completion reaches the confirmed address, named in the member's language.
    const subjects = (await emailsTo(address)).map((email) => email.subject);
    expect(subjects).toEqual(expect.arrayContaining([expect.stringContaining(CHALLENGE_TITLE)]));
  });

  it('shows the training streak on the profile', async () => {
    await member.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Profil' }).click();
    const streak = member.getByTestId('streak');
    await streak.getByTestId('streak-week').waitFor();
    expect(await streak.getByTestId('streak-week').innerText()).toBe('Du hast diese Woche trainiert: sie zählt.');
    expect(await streak.innerText()).toMatch(/\d+ Wochen? in Folge/);
    await screenshot(member, 'journey-de-08-streak');
  });

  it('names both members with their avatars on the club board, never by id', async () => {
    await newcomer.goto(app('#/challenges?tab=global'));
    const joined = card(newcomer, challengeId);
    await joined.getByRole('button', { name: 'Mitmachen' }).click();
    await joined.getByRole('button', { name: 'Verlassen' }).waitFor();
    await shoot(NEWCOMER, Array<number>(10).fill(8.8), await joinedAt(NEWCOMER));
    await newcomer.goto(app(`#/leaderboard/${challengeId}?board=club`));
    expect(await boardRows(newcomer)).toEqual([MEMBER, NEWCOMER]);
    const board = newcomer.getByTestId('leaderboard');
    expect(await board.getByTestId('avatar').count()).toBe(2);
    const text = await board.innerText();
    expect([text.includes(MEMBER), text.includes(NEWCOMER)]).toEqual([false, false]);
    await screenshot(newcomer, 'journey-de-09-board-names');
  });

  it('asks before the newcomer leaves, saying what is lost', async () => {
    await newcomer.goto(app('#/challenges?tab=global'));
    const joined = card(newcomer, challengeId);
    await joined.getByRole('button', { name: 'Verlassen' }).click();
    const question = joined.getByTestId('leave-confirm');
    expect(await question.locator('p').innerText()).toBe(
      'Diese Challenge verlassen? Dein Fortschritt geht verloren: ein Schnitt von 8,8 von 9 Ringen. Wer wieder mitmacht, beginnt bei null.',
    );
    await screenshot(newcomer, 'journey-de-10-leave-question');
    await question.getByRole('button', { name: 'Ja, verlassen' }).click();
    await joined.getByRole('button', { name: 'Mitmachen' }).waitFor();
    // The club board no longer lists them.
    await member.goto(app(`#/leaderboard/${challengeId}?board=club`));
    expect(await boardRows(member)).toEqual([MEMBER]);
  });

  it('is installable from the start: the page names a manifest Chromium reads without errors', async () => {
    const session = await member.context().newCDPSession(member);
    const manifest = (await session.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data: string };
    await session.detach();
    expect([manifest.url, manifest.errors]).toEqual([app('manifest.json'), []]);
    const data = JSON.parse(manifest.data) as { start_url: string; display: string; icons: { src: string }[] };
    expect([data.start_url, data.display]).toEqual(['/app/', 'standalone']);
    for (const icon of data.icons) expect([icon.src, (await fetch(app(icon.src))).status]).toEqual([icon.src, 200]);
  });
});
