import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { memberAppFunction } from '../../functions/app';
import { authConfigFunctions } from '../../functions/authConfig';
import { challengeFunctions } from '../../functions/challenges';
import { clubFunctions } from '../../functions/clubs';
import { meFunctions } from '../../functions/me';
import { notificationFunctions } from '../../functions/notifications';
import { httpGroup, type FunctionDefinition } from '../../shared/host/definition';
import { sharedSite } from '../support/bundles';
import { openContext, waitInPage, type BrowserChoice, type OpenedContext } from '../support/chromium';
import { useTestHost, type TestHostHandle } from '../support/testHost';

const root = path.resolve(__dirname, '../..');
/** The member app built as `npm run build` builds it (development/build.mjs --only app), into a folder of its own. */
export function buildApp(): { dir: string; output: string; remove(): void } {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'app-build-'));
  const output = execFileSync(process.execPath, [path.join(root, 'development', 'build.mjs'), '--only', 'app', '--outdir', outdir], {
    cwd: root,
    encoding: 'utf8',
  });
  return { dir: path.join(outdir, 'app'), output, remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** Where screenshots go (gitignored; CI uploads the folder). */
export function artifactPath(name: string): string {
  const dir = path.join(root, 'test-artifacts', 'app');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

/**
 * Where the focus lands once the screen has settled: the app moves it in an effect after the
 * render that removed the element it was on, so a read right after the removal may still see the
 * body. Answers what `expression` gives once it equals `expected`, or after 5 s what it gives then.
 */
export async function focusAfterRender(page: Page, expression: string, expected: string): Promise<unknown> {
  // Not there in time: the caller's assertion then names what the page shows instead.
  await waitInPage(page, `(${expression}) === ${JSON.stringify(expected)}`, 5_000).catch(() => undefined);
  return page.evaluate<unknown>(expression);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: artifactPath(`${name}.png`), fullPage: true });
}

/** The API functions the app calls, served with the built app. */
export const APP_API: readonly FunctionDefinition[] = [
  ...authConfigFunctions,
  ...meFunctions,
  ...challengeFunctions,
  ...clubFunctions,
  ...notificationFunctions,
];

export interface AppRig {
  host: TestHostHandle;
  /** A new tab with its own sessionStorage (so its own sign-in), in the given language. */
  newPage(options?: { locale?: 'en-GB' | 'de-DE'; width?: number; height?: number }): Promise<Page>;
}

/**
 * One test file's member app: the run's build of it (sharedSite, read only), served by the local
 * host with the API functions, and browser contexts of its own in the run's Chromium, UTC.
 * Registers its beforeAll/afterAll like useTestHost.
 */
export function useAppRig(extra: readonly FunctionDefinition[] = [], where: BrowserChoice = {}): AppRig {
  let built: string | undefined;
  const dir = () => {
    if (!built) throw new Error('the member app is served before its build is ready');
    return built;
  };
  const host = useTestHost([...APP_API, ...extra, memberAppFunction(dir), httpGroup('notFound', '', [])]);
  const browsers = openBrowsers(where);
  beforeAll(async () => {
    built = await sharedSite('app');
  }, 60_000);
  afterAll(async () => {
    await browsers.close();
  });
  return {
    host,
    newPage: (options = {}) => browsers.newPage(options.locale ?? 'en-GB', options),
  };
}

export interface Browsers {
  /**
   * A new tab in the browser profile named `profile` (a browser context each: its own cookies, so
   * its own sign-in at the provider), in the given language.
   */
  newPage(profile: string, options?: { locale?: 'en-GB' | 'de-DE'; width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Browser profiles (contexts) in the run's Chromium, UTC, opened on first use; `close` ends them. */
export function openBrowsers(where: BrowserChoice = {}): Browsers {
  const profiles = new Map<string, Promise<OpenedContext>>();
  return {
    async newPage(profile, options = {}) {
      let opened = profiles.get(profile);
      if (!opened) {
        opened = openContext({ locale: options.locale ?? 'en-GB' }, where);
        profiles.set(profile, opened);
      }
      const page = await (await opened).context.newPage();
      if (options.width) await page.setViewportSize({ width: options.width, height: options.height ?? 844 });
      return page;
    },
    async close() {
      const opened = [...profiles.values()];
      profiles.clear();
      for (const profile of opened) await (await profile).close().catch(() => undefined);
    },
  };
}

/** Opens the app at `hash` and signs in with `token` through the form, as a person would. */
export async function signIn(page: Page, baseUrl: string, token: string, hash = '#/challenges?tab=global'): Promise<void> {
  await page.goto(`${baseUrl}/app/${hash}`);
  await page.getByLabel('Bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}

/** The card of one challenge (by id). */
export function card(page: Page, challengeId: string) {
  return page.locator(`[data-challenge-id="${challengeId}"]`);
}
