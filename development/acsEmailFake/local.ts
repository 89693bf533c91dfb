import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { resetSettings } from '../../shared/config/settings';
import { localDataDir } from '../local/paths';
import { startFakeAcsEmail, type FakeAcsEmail } from './server';

/** Where `npm start` notes the fake's endpoint for `npm run emails`. */
const endpointFile = () => path.join(localDataDir(), 'acs-email-fake.url');

/**
 * For `npm start`: when no email provider is configured (neither NOTIFY_EMAIL_CONNECTION nor
 * NOTIFY_EMAIL_ENDPOINT), the local Communication Services Email fake on a free port, and the
 * connection setting pointing at it, so the delivery timer sends through the real SDK.
 */
export async function startLocalEmailFake(): Promise<FakeAcsEmail | undefined> {
  if (process.env['NOTIFY_EMAIL_CONNECTION']?.trim() || process.env['NOTIFY_EMAIL_ENDPOINT']?.trim()) return undefined;
  const fake = await startFakeAcsEmail();
  process.env['NOTIFY_EMAIL_CONNECTION'] = fake.connectionString;
  resetSettings();
  await mkdir(localDataDir(), { recursive: true });
  await writeFile(endpointFile(), fake.endpoint);
  return {
    ...fake,
    async close() {
      await rm(endpointFile(), { force: true });
      await fake.close();
    },
  };
}

/** The endpoint of the fake a running `npm start` of this checkout serves, if any. */
export async function runningEmailFake(): Promise<string | undefined> {
  return readFile(endpointFile(), 'utf8').catch(() => undefined);
}
