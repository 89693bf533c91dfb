import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { localDataDir } from '../local/paths';

/** Where `npm start` notes the local provider's issuer for `npm run token -- --user`. */
const issuerFile = () => path.join(localDataDir(), 'oidc-provider.url');

export async function noteRunningIssuer(issuer: string): Promise<void> {
  await mkdir(localDataDir(), { recursive: true });
  await writeFile(issuerFile(), issuer);
}

export async function forgetRunningIssuer(): Promise<void> {
  await rm(issuerFile(), { force: true });
}

/** The issuer of the provider a running `npm start` of this checkout serves, if any. */
export async function runningOidcProvider(): Promise<string | undefined> {
  return readFile(issuerFile(), 'utf8').catch(() => undefined);
}
