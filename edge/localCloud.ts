import { existsSync, readFileSync } from 'node:fs';

/**
 * The cloud `npm run edge` pushes to when SVC_CLOUD_BASE_URL is left empty: the local host of
 * `npm start` in the same checkout, on its PORT as `npm start` reads it (the environment, else the
 * first settings file that exists — local.settings.json, then the committed sample — else 7071).
 * Only the development entry uses it; on a box the setting's own default applies.
 */
export function withLocalCloudDefault(
  env: Record<string, string | undefined>,
  settingsFiles: readonly string[],
): Record<string, string | undefined> {
  if (env['SVC_CLOUD_BASE_URL']?.trim()) return env;
  return { ...env, SVC_CLOUD_BASE_URL: `http://127.0.0.1:${localHostPort(env, settingsFiles)}` };
}

function localHostPort(env: Record<string, string | undefined>, settingsFiles: readonly string[]): string {
  const fromEnv = env['PORT']?.trim();
  if (fromEnv) return fromEnv;
  const file = settingsFiles.find((candidate) => existsSync(candidate));
  if (file) {
    try {
      const port = (JSON.parse(readFileSync(file, 'utf8')) as { Values?: Record<string, unknown> }).Values?.['PORT'];
      if (typeof port === 'string' && port.trim()) return port.trim();
    } catch {
      // An unreadable settings file is `npm start`'s to report; the default port applies here.
    }
  }
  return '7071';
}
