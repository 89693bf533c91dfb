import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { getSql } from '../../shared/db/client';
import { notify } from '../../shared/notifications/notify';
import { addMember, createClub, makeChallenge, unique } from '../challenges/support';
import { tokenFor } from '../support/tokens';
import { signInGerman } from './appSupportGerman';
import { card, useAppRig } from './support';

/** axe-core's browser build, as the package ships it (a devDependency). */
const AXE = readFileSync(path.join(__dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on every screen of the member app, German, at a phone's width: no serious or critical
 * violation. axe runs in the page through the DevTools protocol (the app's CSP allows no inline
 * script, and rightly so).
 */
describe('member app: axe on every screen', () => {
  const rig = useAppRig();
  const tag = unique('axe');
  const member = unique('axe-mitglied');
  let clubId: string;
  let challengeId: string;
  let page: Page;

  async function seriousViolations(): Promise<string[]> {
    // A hash change keeps the document, and axe with it: parse its 500 kB again only after a load.
    if (await page.evaluate("typeof axe === 'undefined'")) await page.evaluate(AXE);
    return page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id + ': ' + violation.nodes.map((node) => node.target.join(' ')).join(', ')))`);
  }

  beforeAll(async () => {
    const club = await createClub();
    clubId = club.clubId;
    await addMember(clubId, member);
    challengeId = (await makeChallenge({ scope: 'club', clubId, title: `Zehn Schüsse ${tag}`, description: 'Im Verein' })).id;
    await getSql().begin((tx) =>
      notify(tx, { userId: member, title: 'Willkommen', tone: 'info', kind: 'challenge', source: 'test', channels: [] }),
    );
    page = await rig.newPage({ locale: 'de-DE', width: 390 });
  });

  it('finds none on the sign-in screen', async () => {
    await page.goto(`${rig.host.url}/app/`);
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('finds none on any signed-in screen, a joined card and an open leave question included', async () => {
    await signInGerman(page, rig.host.url, await tokenFor(member), '#/challenges?tab=club');
    await card(page, challengeId).getByRole('button', { name: 'Mitmachen' }).click();
    await card(page, challengeId).getByRole('button', { name: 'Verlassen' }).click();
    await card(page, challengeId).getByTestId('leave-confirm').waitFor();
    expect(['challenges?tab=club', await seriousViolations()]).toEqual(['challenges?tab=club', []]);
    for (const hash of [
      `challenges?tab=global&q=${tag}`,
      'challenges?tab=personal',
      `leaderboard/${challengeId}?board=club`,
      'profile',
      'inbox',
      'settings',
      'shooter',
      'clubs',
      `club/${clubId}`,
      `member/${member}`,
      'join?code=',
      'confirm-email?token=unbekannt',
    ]) {
      await page.goto(`${rig.host.url}/app/#/${hash}`);
      await page.locator('main h1').waitFor();
      await page.getByTestId('loading').first().waitFor({ state: 'detached' });
      expect([hash, await seriousViolations()]).toEqual([hash, []]);
    }
  });
});
