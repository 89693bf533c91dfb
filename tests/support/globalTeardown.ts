import { rmSync } from 'node:fs';
import postgres from 'postgres';
import { quoteIdentifier } from '../../development/local/embeddedPostgres';

export default async function globalTeardown(): Promise<void> {
  const resources = globalThis.__testResources;
  if (!resources) return;
  const admin = postgres(resources.serverUrl, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`drop database if exists ${quoteIdentifier(resources.database)} with (force)`);
  await admin.end();
  await resources.stopBrowser();
  await resources.releaseStorage();
  await resources.releaseServer();
  rmSync(resources.buildDir, { recursive: true, force: true });
}
