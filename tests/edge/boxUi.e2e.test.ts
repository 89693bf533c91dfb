import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { parseEdgeConfig } from '../../edge/config';
import type { ConnectorStatusView } from '../../edge/connectorManager';
import { startAgent, type RunningAgent } from '../../edge/startAgent';
import { hashPassword } from '../../edge/boxUiCredential';
import { createLogger } from '../../shared/log/logger';
import { startKafkaConnectFake, type KafkaConnectFake } from '../../development/kafkaConnectFake/fake';
import { openContext, type OpenedContext } from '../support/chromium';
import { useMirrorDatabase } from '../support/mirrorDatabase';
import { MIRROR_CLUB_TABLE_DDL } from '../../edge/mirror';

const root = path.resolve(__dirname, '..', '..');
const CONNECTOR_FILE = path.join(root, 'infra', 'connector', 'debezium-club-data.json');
const NAME = 'club-data-4711';
const PASSWORD = 'correct horse battery staple';
function artifact(name: string): string {
  const dir = path.join(root, 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/**
 * The box UI in headless Chromium against the agent with the wire-level Kafka Connect fake behind
 * the consent gate: sign-in, consent, revoke, re-snapshot through the confirmation, both
 * languages, keyboard only and phone width. Screenshots go to test-artifacts/box-ui-*.png.
 */
describe('box agent: the operator web UI', () => {
  const quiet = createLogger({ minLevel: 'error', sink: () => undefined });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'box-ui-'));
  let fake: KafkaConnectFake;
  let agent: RunningAgent;
  let opened: OpenedContext;
  let browser: BrowserContext;
  let hash: string;
  let counter = 0;
  const extra: RunningAgent[] = [];

  async function agentWith(settings: Record<string, string>): Promise<RunningAgent> {
    counter += 1;
    const config = parseEdgeConfig({ SVC_EDGE_PORT: '0', ...settings });
    return startAgent({ ...config, mirrorDatabaseUrl: process.env['DATABASE_URL'] ?? '' }, quiet, undefined, undefined, {
      kafkaConnectUrl: fake.url,
      stateFile: path.join(dir, `consent-${counter}.json`),
      checkSeconds: 3600,
      watchSeconds: 60,
      timeoutSeconds: 5,
      conflictAttempts: 3,
      conflictDelayMs: 10,
      managed: { clubId: '4711', configFile: CONNECTOR_FILE },
    });
  }

  beforeAll(async () => {
    hash = await hashPassword(PASSWORD);
    fake = await startKafkaConnectFake();
    agent = await agentWith({ SVC_BOX_UI_PASSWORD_HASH: hash });
    opened = await openContext({ viewport: { width: 1100, height: 900 } });
    browser = opened.context;
  });

  afterAll(async () => {
    await opened?.close();
    await Promise.all(extra.splice(0).map((running) => running.close()));
    await agent?.close();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`box:${password}`).toString('base64')}` });
  const status = async () =>
    (await (await fetch(agent.url + '/api/connector/status', { headers: basic(PASSWORD) })).json()) as ConnectorStatusView;

  async function signIn(page: Page): Promise<void> {
    await page.goto(agent.url + '/ui');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Data-sharing consent' }).waitFor();
  }
  const consentPanel = (page: Page) => page.getByRole('region', { name: /consent|Einwilligung/ });
  const message = (page: Page) => page.getByRole('status');

  it('refuses the routes and the consent switch without the password, and changes nothing', async () => {
    const before = await status();
    for (const [method, route] of [
      ['GET', '/api/connector/status'],
      ['POST', '/api/connector/resnapshot'],
      ['GET', '/api/club-master-sync/status'],
      ['GET', '/api/box/identity'],
      ['GET', '/ui/session'],
    ]) {
      const response = await fetch(agent.url + route!, { method: method! });
      expect([route, response.status, response.headers.get('content-type')]).toEqual([route, 401, 'application/problem+json']);
    }
    const put = await fetch(agent.url + '/api/connector/consent', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...basic('not the password') },
      body: JSON.stringify({ state: 'GRANTED', by: 'Intruder' }),
    });
    expect(put.status).toBe(401);
    // A page elsewhere that knows the password still cannot change anything: the origin must be the box's own.
    const crossSite = await fetch(agent.url + '/api/connector/consent', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example', ...basic(PASSWORD) },
      body: JSON.stringify({ state: 'GRANTED', by: 'Intruder' }),
    });
    expect(crossSite.status).toBe(403);
    const after = await status();
    expect(after.consent).toEqual(before.consent);
    expect(after.consent.state).toBe('NONE');
    expect(fake.connector(NAME)).toBeUndefined();
  });

  it('without a password set refuses the UI and says how to set one; beyond loopback it refuses the routes too', async () => {
    const loopback = await agentWith({});
    extra.push(loopback);
    const page = await browser.newPage();
    const answer = await page.goto(loopback.url + '/ui');
    expect(answer?.status()).toBe(503);
    await expect(page.getByRole('heading', { name: 'No UI password set' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('main').innerText()).toContain('hash-password');
    await page.screenshot({ path: artifact('box-ui-no-password.png'), fullPage: true });
    await page.close();
    // On loopback the REST routes answer as before the UI existed.
    expect((await fetch(loopback.url + '/api/connector/status')).status).toBe(200);

    const open = await agentWith({ SVC_EDGE_HOST: '0.0.0.0' });
    extra.push(open);
    const local = open.url.replace('0.0.0.0', '127.0.0.1');
    const refused = await fetch(local + '/api/connector/status');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toContain('SVC_BOX_UI_PASSWORD_HASH');
    const consent = await fetch(local + '/api/connector/consent', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state: 'GRANTED', by: 'Someone on the club network' }),
    });
    expect(consent.status).toBe(403);
    expect((await fetch(local + '/api/connector/resnapshot', { method: 'POST' })).status).toBe(403);
  });

  it('signs in, records consent, re-snapshots through the confirmation and revokes', async () => {
    const page = await browser.newPage();
    await page.goto(agent.url + '/ui');
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Wrong password.');
    await page.screenshot({ path: artifact('box-ui-sign-in.png'), fullPage: true });
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Data-sharing consent' }).waitFor();
    expect(await consentPanel(page).locator('dd').first().innerText()).toBe('none recorded');
    // Re-snapshot needs a granted consent.
    expect(await page.getByRole('button', { name: 'Reset and Re-Snapshot' }).isDisabled()).toBe(true);

    // Without a name nothing is recorded.
    await page.getByRole('button', { name: 'Record consent' }).click();
    await expect(page.getByText('Say who records the decision.').isVisible()).resolves.toBe(true);
    expect((await status()).consent.state).toBe('NONE');

    await page.getByLabel('Recorded by (name, board resolution)').fill('Board resolution 2026-03-01');
    await page.getByRole('button', { name: 'Record consent' }).click();
    await page.getByText('Consent recorded: granted').waitFor();
    const granted = await status();
    expect(granted.consent).toMatchObject({ state: 'GRANTED', changedBy: 'Board resolution 2026-03-01' });
    expect(fake.connector(NAME)?.target).toBe('STARTED');
    // The message comes with the action's answer; the panel shows the state once the page has read it again.
    await consentPanel(page).locator('dd').filter({ hasText: 'Board resolution 2026-03-01' }).waitFor();
    await expect(consentPanel(page).innerText()).resolves.toContain('Board resolution 2026-03-01');
    await page.getByText(`${NAME}: RUNNING`).waitFor();
    await page.screenshot({ path: artifact('box-ui-consent-granted.png'), fullPage: true });

    // The confirmation says a full snapshot follows; Cancel does nothing.
    const mutationsBefore = fake.requests().filter((line) => line.startsWith('DELETE')).length;
    await page.getByRole('button', { name: 'Reset and Re-Snapshot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset and Re-Snapshot?' });
    await expect(dialog.innerText()).resolves.toContain('a full snapshot of all score tables follows');
    await page.screenshot({ path: artifact('box-ui-resnapshot-confirm.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect(fake.requests().filter((line) => line.startsWith('DELETE')).length).toBe(mutationsBefore);

    await page.getByRole('button', { name: 'Reset and Re-Snapshot' }).click();
    await dialog.getByRole('button', { name: 'Reset and start full snapshot' }).click();
    await message(page).getByText('Reset done: a full snapshot is running.').waitFor();
    expect((await status()).lastAction).toMatchObject({ name: 'resnapshot', ok: true, trigger: 'operator' });
    expect(fake.requests()).toContain(`DELETE /connectors/${NAME}/offsets 200`);
    await page.getByText(/resnapshot – done/).waitFor();

    // A revoke is a decision of its own: the name recorded with the grant is not reused silently.
    await expect(page.getByLabel('Recorded by (name, board resolution)').inputValue()).resolves.toBe('');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText('Say who records the decision.').isVisible()).resolves.toBe(true);
    expect((await status()).consent).toMatchObject({ state: 'GRANTED', changedBy: 'Board resolution 2026-03-01' });
    await page.getByLabel('Recorded by (name, board resolution)').fill('Chair, letter of 2026-03-05');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Consent recorded: revoked').waitFor();
    expect((await status()).consent).toMatchObject({ state: 'REVOKED', changedBy: 'Chair, letter of 2026-03-05' });
    expect(fake.connector(NAME)?.target).toBe('PAUSED');
    await consentPanel(page).locator('dd').filter({ hasText: 'revoked' }).waitFor();
    await expect(consentPanel(page).innerText()).resolves.toContain('revoked');
    await page.screenshot({ path: artifact('box-ui-revoked.png'), fullPage: true });

    // A failing Kafka Connect shows the last action's error.
    fake.failNext({ method: 'PUT', path: /resume/, status: 500, message: 'worker unavailable', times: 1 });
    await page.getByLabel('Recorded by (name, board resolution)').fill('Board resolution 2026-04-01');
    await page.getByRole('button', { name: 'Record consent' }).click();
    await page.getByText(/The action failed: .*worker unavailable/).waitFor();
    await page
      .getByRole('region', { name: 'Score-data connector' })
      .getByText(/resume – failed/)
      .waitFor();
    await page
      .getByRole('region', { name: 'Score-data connector' })
      .getByText(/worker unavailable/)
      .waitFor();
    await page.screenshot({ path: artifact('box-ui-action-failed.png'), fullPage: true });

    // Signing out ends the session: the routes refuse the old cookie.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Password').waitFor();
    const afterSignOut = await page.evaluate(() => fetch('/api/connector/status').then((response) => response.status));
    expect(afterSignOut).toBe(401);
    await page.close();
  });

  it('speaks German for a German browser and switches language on request', async () => {
    const german = await openContext({ locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: { width: 1100, height: 900 } });
    try {
      const page = await german.context.newPage();
      await page.goto(agent.url + '/ui');
      await page.getByLabel('Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByRole('heading', { name: 'Einwilligung zur Datenweitergabe' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('de');
      await page.getByRole('button', { name: 'Zurücksetzen und neu einlesen' }).waitFor();
      await page.getByRole('heading', { name: 'Donnerstags-Prüfung der Spiegeldatenbank' }).waitFor();
      await page.screenshot({ path: artifact('box-ui-de.png'), fullPage: true });

      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Data-sharing consent' }).waitFor();
      expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');
      await page.getByRole('button', { name: 'Deutsch' }).click();
      await page.getByRole('heading', { name: 'Einwilligung zur Datenweitergabe' }).waitFor();
      // The choice outlasts a reload.
      await page.reload();
      await page.getByRole('heading', { name: 'Einwilligung zur Datenweitergabe' }).waitFor();
    } finally {
      await german.close();
    }
  });

  it('works with the keyboard alone, the focus always visible', async () => {
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.goto(agent.url + '/ui');
    const focused = () => page.locator(':focus');
    async function tabTo(name: string, limit = 30): Promise<void> {
      for (let i = 0; i < limit; i += 1) {
        await page.keyboard.press('Tab');
        // Browser-side code as text: the test project compiles without the DOM library.
        const label = await page.evaluate<string>(
          "(() => { const e = document.activeElement; return (e && e.labels && e.labels[0] ? e.labels[0].textContent : e && e.textContent) || ''; })()",
        );
        if (label.trim() === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    }
    const ring = () =>
      page.evaluate<{ style: string; width: number }>(
        '(() => { const style = getComputedStyle(document.activeElement); return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) }; })()',
      );

    await page.getByLabel('Password').waitFor();
    // The password field has the focus on arrival.
    expect(await focused().getAttribute('id')).toBe('password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Data-sharing consent' }).waitFor();
    await tabTo('Recorded by (name, board resolution)');
    await page.keyboard.type('Keyboard volunteer');
    await tabTo('Record consent');
    const shown = await ring();
    expect(shown.style).not.toBe('none');
    expect(shown.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    await page.getByText('Consent recorded: granted').waitFor();
    expect((await status()).consent.changedBy).toBe('Keyboard volunteer');

    await tabTo('Reset and Re-Snapshot');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Reset and Re-Snapshot?' });
    await dialog.waitFor();
    // Escape closes the confirmation without a reset.
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(false);
    expect((await status()).lastAction?.name).not.toBe('resnapshot');
    await page.screenshot({ path: artifact('box-ui-keyboard.png') });
    await page.close();
  });

  it('fits a phone: no sideways scrolling, large enough targets, AA contrast', async () => {
    await browser.clearCookies();
    const page = await browser.newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await signIn(page);
    const widths = await page.evaluate<{ scroll: number; view: number }>(
      '({ scroll: document.documentElement.scrollWidth, view: window.innerWidth })',
    );
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
    const small = await page.evaluate(`[...document.querySelectorAll('#app button, #app input')]
      .filter((element) => element.getBoundingClientRect().height < 40)
      .map((element) => element.id || element.textContent)`);
    expect(small).toEqual([]);
    // WCAG 2 contrast of every visible text against the first opaque background behind it.
    const lowContrast = await page.evaluate(`(() => {
      const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
      const channel = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      const background = (element) => {
        for (let current = element; current; current = current.parentElement) {
          const color = rgb(getComputedStyle(current).backgroundColor);
          if (color.length === 3 || color[3] !== 0) return color.slice(0, 3);
        }
        return [255, 255, 255];
      };
      return [...document.querySelectorAll('h1, h2, dt, dd, label, button, p, input')]
        .filter((element) => (element.textContent || '').trim() !== '' && element.offsetParent !== null)
        .map((element) => {
          const a = luminance(rgb(getComputedStyle(element).color));
          const b = luminance(background(element));
          return { text: element.textContent.trim().slice(0, 30), ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
        })
        .filter((item) => item.ratio < 4.5);
    })()`);
    expect(lowContrast).toEqual([]);
    await page.screenshot({ path: artifact('box-ui-phone.png'), fullPage: true });
    await page.close();
  });
});

describe('box agent: the operator web UI names its club and box', () => {
  const quiet = createLogger({ minLevel: 'error', sink: () => undefined });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'box-ui-identity-'));
  const agents: RunningAgent[] = [];
  const mirror = useMirrorDatabase(
    [MIRROR_CLUB_TABLE_DDL, "insert into club_software_club (vereins_id, name) values ('4711', 'SV Tell Altdorf'), ('4712', 'SG Nachbar')"],
    () => Promise.all(agents.splice(0).map((running) => running.close())),
  );
  let fake: KafkaConnectFake;
  let opened: OpenedContext;

  beforeAll(async () => {
    fake = await startKafkaConnectFake();
    opened = await openContext({ viewport: { width: 1100, height: 900 } });
  });
  afterAll(async () => {
    await opened?.close();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function signedInPage(managed: boolean, context: BrowserContext = opened.context): Promise<Page> {
    const config = parseEdgeConfig({ SVC_EDGE_PORT: '0', SVC_BOX_UI_PASSWORD_HASH: await hashPassword(PASSWORD) });
    const agent = await startAgent({ ...config, mirrorDatabaseUrl: mirror.url }, quiet, undefined, undefined, {
      kafkaConnectUrl: fake.url,
      stateFile: path.join(dir, `consent-${agents.length}.json`),
      checkSeconds: 3600,
      ...(managed ? { managed: { clubId: '4711', configFile: CONNECTOR_FILE } } : {}),
    });
    agents.push(agent);
    const page = await context.newPage();
    await page.goto(agent.url + '/ui');
    await page.getByLabel(/Password|Passwort/).fill(PASSWORD);
    await page.getByRole('button', { name: /Sign in|Anmelden/ }).click();
    await page.getByRole('heading', { name: /Data-sharing consent|Einwilligung/ }).waitFor();
    return page;
  }

  it("shows the club number with its name from the mirror, and the box's name", async () => {
    const page = await signedInPage(true);
    const identity = page.getByTestId('box-identity');
    await identity.getByText('Club 4711 – SV Tell Altdorf').waitFor();
    await expect(identity.innerText()).resolves.toContain(`Box ${os.hostname()}`);
    await page.screenshot({ path: artifact('box-ui-identity.png') });
    await page.close();
  });

  it('says so in German, and says when no club is set', async () => {
    const german = await openContext({ locale: 'de-DE', viewport: { width: 1100, height: 900 } });
    try {
      const page = await signedInPage(false, german.context);
      const identity = page.getByTestId('box-identity');
      await identity.getByText('Verein: keiner eingestellt').waitFor();
      await expect(identity.innerText()).resolves.toContain(`Box ${os.hostname()}`);
    } finally {
      await german.close();
    }
  });
});
