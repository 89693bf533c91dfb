import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { migrate } from '../../shared/db/migrate';
import { startPrivateAzurite } from '../../development/local/azurite';
import { ensureDatabase, quoteIdentifier } from '../../development/local/embeddedPostgres';
import { loadLocalSettings } from '../../development/local/environment';
import { freePort } from '../../development/local/net';
import { createFakeTls } from '../../development/costsFake/certificate';
import { startRunBrowser } from './chromium';

/**
 * Real components for the whole run: a fresh PostgreSQL database (on DATABASE_URL's server, else
 * the embedded one) with every migration applied, a private Azurite on free ports and one headless
 * Chromium. Workers inherit the resulting DATABASE_URL, AzureWebJobsStorage and browser endpoint.
 */
export default async function globalSetup(): Promise<void> {
  // Request logs would drown the test report; warnings and errors still show.
  process.env['LOG_LEVEL'] ??= 'warn';
  loadLocalSettings();
  // Chromium, Azurite and the fake cost provider's certificate are made while the database is made
  // and migrated. (A failure of one is marked handled here and thrown where it is awaited.)
  const browserStarted = startRunBrowser();
  const storageStarted = startRunStorage();
  const tlsMade = createFakeTls(mkdtempSync(path.join(os.tmpdir(), 'fake-cost-tls-')));
  for (const started of [storageStarted, tlsMade]) started.catch(() => undefined);
  const server = await ensureDatabase(process.env['DATABASE_URL'] || undefined, { throwaway: true });
  const database = `test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(server.url, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database ${quoteIdentifier(database)}`);
  await admin.end();

  const testUrl = new URL(server.url);
  testUrl.pathname = `/${database}`;
  process.env['DATABASE_URL'] = testUrl.toString();
  const sql = postgres(testUrl.toString(), { max: 1, onnotice: () => undefined });
  await migrate(sql);
  await sql.end();

  const storage = await storageStarted;
  process.env['AzureWebJobsStorage'] = storage.connectionString;

  // The fake cost provider's certificate, trusted by the workers forked after this (Node reads
  // NODE_EXTRA_CA_CERTS only at start-up; jest.config.js makes every run use workers).
  const fakeTls = await tlsMade;
  process.env['NODE_EXTRA_CA_CERTS'] = fakeTls.caFile;

  // The production bundles are built once for the run, by the first file that needs them (tests/support/bundles.ts).
  const buildDir = mkdtempSync(path.join(os.tmpdir(), 'test-build-'));
  process.env['TEST_BUILD_DIR'] = buildDir;
  // A build named by the caller (.ci/run: dist/) is read from a copy of the run's own: `npm start`,
  // which some files run, builds the sites into dist/ again while other files serve them.
  const prebuilt = process.env['TEST_PREBUILT_DIR'];
  if (prebuilt) {
    const copy = path.join(buildDir, 'prebuilt');
    cpSync(path.resolve(prebuilt), copy, { recursive: true });
    process.env['TEST_PREBUILT_DIR'] = copy;
  }
  // The processes the tests start (npm start, the commands, the bundles) load the same modules
  // again and again: V8's compile cache, shared through this variable, lets all but the first skip
  // compiling them. The folder goes with the build folder.
  process.env['NODE_COMPILE_CACHE'] ??= path.join(buildDir, 'compile-cache');

  const stopBrowser = await browserStarted;

  globalThis.__testResources = {
    serverUrl: server.url,
    database,
    releaseServer: () => server.release(),
    releaseStorage: () => storage.release(),
    stopBrowser,
    buildDir,
  };
}

/** A private Azurite on free ports for the run. */
async function startRunStorage(): ReturnType<typeof startPrivateAzurite> {
  const [blob, queue, table] = [await freePort(), await freePort(), await freePort()];
  return startPrivateAzurite({ blob, queue, table }, mkdtempSync(path.join(os.tmpdir(), 'azurite-')));
}

declare global {
  var __testResources:
    | {
        serverUrl: string;
        database: string;
        releaseServer(): Promise<void>;
        releaseStorage(): Promise<void>;
        stopBrowser(): Promise<void>;
        buildDir: string;
      }
    | undefined;
}
