import { EventHubProducerClient } from '@azure/event-hubs';
import type { Page } from 'playwright-core';
import { DEMO_MEMBERSHIPS } from '../../development/demo/seed';
import { sendChangeEvents } from '../../development/ingest/sendChangeEvents';
import { shotEvents } from './journeySupport';
import type { StartedApp } from './startProcess';

/** The shooter number the demo seed links to a demo user. */
export function demoShooterOf(userId: string): number {
  return Number(DEMO_MEMBERSHIPS.find((member) => member.userId === userId)?.shooterId);
}

/**
 * Shots of one shooter since `from`, sent to the start's local Event Hubs endpoint as the box
 * publishes them; back when the start's event trigger has stored all of them and the progress
 * timer has been run as the Core Tools run one (its schedule is every 15 minutes).
 */
export async function shootAtStart(
  started: StartedApp,
  options: { shooterId: number; from: Date; values: readonly number[]; series: number },
): Promise<void> {
  const events = shotEvents(options);
  const ids = events.map((event) => String((event.body?.after as { id: number }).id));
  const producer = new EventHubProducerClient(started.hubConnection, 'club-data');
  try {
    await sendChangeEvents(producer, events);
  } finally {
    await producer.close();
  }
  for (const deadline = Date.now() + 20_000; ;) {
    if (Date.now() > deadline) throw new Error(`the start's event trigger did not store the shots:\n${started.output()}`);
    const [row] = await started.sql<{ stored: number }[]>`
      select count(*)::int as stored from club_data_hit where source_record_id = any(${ids})`;
    if (row?.stored === ids.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await runTimer(started, 'challengeProgress');
}

/** Runs one timer function of the start now, as `POST /admin/functions/<name>` does under the Core Tools. */
export async function runTimer(started: StartedApp, name: string): Promise<void> {
  const run = await fetch(`${started.url}/admin/functions/${name}`, { method: 'POST', body: '{}' });
  if (run.status !== 202) throw new Error(`running ${name} answered ${run.status}`);
}

/** Signs in at the start's local OpenID provider from the app's sign-in button (named in the app's language). */
export async function signInAtProvider(tab: Page, username: string, buttonName: string): Promise<void> {
  await tab.getByRole('button', { name: buttonName, exact: true }).click();
  await tab.getByLabel('Username').fill(username);
  await tab.getByLabel('Password').fill('demo');
  await tab.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens `url` in a tab whose app speaks German, signs `username` in at the provider and waits for the app's navigation. */
export async function signInGermanAtProvider(tab: Page, url: string, username: string): Promise<void> {
  await tab.goto(url);
  await signInAtProvider(tab, username, 'Anmelden');
  await tab.getByRole('navigation', { name: 'Hauptnavigation' }).waitFor();
}

/** Signs out at the app and then at the local OpenID provider; the app's tokens are gone from the tab. */
export async function signOutAtProvider(tab: Page): Promise<void> {
  await tab.getByRole('button', { name: 'Sign out' }).click();
  await tab.getByRole('heading', { name: 'Sign out of the local provider?' }).waitFor();
  await tab.getByRole('button', { name: 'Sign out' }).click();
  await tab.getByText('You are signed out.').waitFor();
  expect(await tab.evaluate("sessionStorage.getItem('signin.app.tokens')")).toBeNull();
}
