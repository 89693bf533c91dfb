import path from 'node:path';

/** Repository root. */
export const repoRoot = path.resolve(__dirname, '..', '..');

/**
 * The git-ignored folder where local data (embedded PostgreSQL, Azurite) lives: `.data` of this
 * checkout, or LOCAL_DATA_DIR (a test gives a run its own, so it shares nothing with the checkout's).
 */
export function localDataDir(): string {
  const configured = process.env['LOCAL_DATA_DIR']?.trim();
  return configured ? path.resolve(configured) : path.join(repoRoot, '.data');
}
