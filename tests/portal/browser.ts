import type { BrowserContext, Page } from 'playwright-core';
import { authConfigFunctions } from '../../functions/authConfig';
import { clubMasterFunctions } from '../../functions/clubMaster';
import { diagnosticsFunctions } from '../../functions/diagnostics';
import { meFunctions } from '../../functions/me';
import { notificationFunctions } from '../../functions/notifications';
import { portalFunction } from '../../functions/portal';
import { costsFunction } from '../../functions/costs';
import type { CostService } from '../../shared/costs/service';
import { httpGroup, type FunctionDefinition } from '../../shared/host/definition';
import { openContext } from '../support/chromium';
import { startTestHost, type TestHost } from '../support/testHost';
import { sharedSite } from '../support/bundles';
import { artifactPath } from './support';

export interface PortalRig {
  host: TestHost;
  browser: BrowserContext;
  /** What the functions logged (level and line), so a test can check it and the report stays clean. */
  functionLogs: { level: string; line: string }[];
  /** A new tab (its own sessionStorage, so its own sign-in). */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * One test file's portal: the run's build of it (sharedSite, read only), served by the local host
 * with the API functions it calls (costs over `costService`), and a browser context of its own in
 * the run's Chromium. English labels, UTC, so the expected texts are fixed.
 */
export async function startPortalRig(options: { costService: () => CostService; extra?: FunctionDefinition[] }): Promise<PortalRig> {
  const dir = await sharedSite('portal');
  const functionLogs: { level: string; line: string }[] = [];
  const host = await startTestHost(
    [
      ...meFunctions,
      ...authConfigFunctions,
      ...notificationFunctions,
      ...diagnosticsFunctions,
      ...clubMasterFunctions,
      costsFunction(options.costService),
      ...(options.extra ?? []),
      portalFunction(() => dir),
      httpGroup('notFound', '', []),
    ],
    { functionLog: (level, line) => functionLogs.push({ level, line }) },
  );
  const opened = await openContext({ acceptDownloads: true });
  const browser = opened.context;
  return {
    host,
    browser,
    functionLogs,
    newPage: () => browser.newPage(),
    async close() {
      await opened.close();
      await host.close();
    },
  };
}

/** Opens the portal in `page` and signs in with `token` through the form, as a person would. */
export async function signIn(page: Page, host: TestHost, token: string): Promise<void> {
  await page.goto(`${host.url}/portal/`);
  await page.getByLabel('Bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: artifactPath(`${name}.png`), fullPage: true });
}

/** A link of the main navigation. */
export function navLink(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name, exact: true });
}
