import path from 'node:path';

/** Repository root, and the git-ignored folder where local data (embedded PostgreSQL, Azurite) lives. */
export const repoRoot = path.resolve(__dirname, '..', '..');
export const localDataDir = path.join(repoRoot, '.data');
