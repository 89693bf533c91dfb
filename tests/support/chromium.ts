import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

/**
 * Debian's Chromium (installed by development/ensure-chromium.sh when missing), driven by
 * playwright-core: its headless shell where installed (the package chromium-headless-shell, the
 * same engine and version without the desktop browser's layers, which is what Playwright itself
 * runs headless), else the full browser in its headless mode.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const FULL_BROWSER = '/usr/bin/chromium';
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER;

/** Where globalSetup's browser listens; the workers inherit it. */
const ENDPOINT_VARIABLE = 'TEST_CHROMIUM_ENDPOINT';

const LAUNCH = {
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    // What a test never needs and the run's CPU pays for (a fifth of Chromium's CPU on the browser
    // files, measured in docs/testing.md): a renderer process per site of each context (the sign-in
    // flows visit two origins), the optimising JavaScript compilers for pages that live a few
    // seconds, and a GPU process of its own beside the software rasteriser.
    '--disable-site-isolation-trials',
    '--disable-features=IsolateOrigins,site-per-process',
    '--js-flags=--no-opt --no-maglev',
    '--in-process-gpu',
  ],
};

/**
 * One headless Chromium for the whole test run, started by globalSetup when the machine has one
 * (a browser start costs more than most browser tests' own work). Returns its stop function.
 */
export async function startRunBrowser(): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) return () => Promise.resolve();
  const server = await chromium.launchServer(LAUNCH);
  process.env[ENDPOINT_VARIABLE] = server.wsEndpoint();
  return () => server.close();
}

/** A browser context and the one call that ends it. */
export interface OpenedContext {
  context: BrowserContext;
  /** Closes the context, then disconnects from the run's browser (or ends the one started for it). */
  close(): Promise<void>;
}

export interface BrowserChoice {
  /**
   * The full browser, started for the caller alone, where the run's is the headless shell: what
   * only the desktop browser has (a service worker's push subscription and notifications).
   */
  fullBrowser?: boolean;
}

/**
 * A browser context of the caller's own (its own cookies and storage, like a fresh profile),
 * English, UTC and reduced motion unless `options` says otherwise: in the run's browser, or in a browser started
 * here when there is none (a file run outside the integration project).
 */
export async function openContext(options: BrowserContextOptions = {}, where: BrowserChoice = {}): Promise<OpenedContext> {
  const endpoint = process.env[ENDPOINT_VARIABLE];
  const browser: Browser =
    where.fullBrowser && CHROMIUM !== FULL_BROWSER
      ? await chromium.launch({ ...LAUNCH, executablePath: FULL_BROWSER })
      : endpoint
        ? await chromium.connect(endpoint)
        : await chromium.launch(LAUNCH);
  const context = await browser.newContext({
    locale: 'en-GB',
    timezoneId: 'UTC',
    viewport: { width: 1280, height: 900 },
    // No test here is about motion: a spinner turning at 60 frames a second is raster work for
    // nothing, and a screenshot shows the end state of an animation rather than a frame of it.
    reducedMotion: 'reduce',
    ...options,
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close();
    },
  };
}

/**
 * Waits until `expression` is truthy in the page (a promise is awaited), read every 50 ms with
 * page.evaluate. Not page.waitForFunction with a string: after a first read from outside it polls
 * through eval inside the page, which the app's and the portal's Content Security Policy refuse
 * (script-src 'self'), so it passed only when that first read was already true.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate<unknown>(expression))) {
    if (Date.now() > deadline) throw new Error(`Not true in the page within ${timeoutMs} ms: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
