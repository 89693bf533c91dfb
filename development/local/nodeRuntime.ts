import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths';

/** The Node.js version pinned in .nvmrc: the one the npm scripts run (node_modules/.bin/node), CI and Azure. */
export function pinnedNodeVersion(): string {
  return `v${readFileSync(path.join(repoRoot, '.nvmrc'), 'utf8').trim()}`;
}

/**
 * Refuses a run on another Node.js than the pin: the npm scripts put the pinned binary (the `node`
 * devDependency) first on PATH, so a mismatch means the script was started past npm, and what it
 * shows would not be what production runs.
 */
export function assertPinnedNode(running: string = process.version): string {
  const pinned = pinnedNodeVersion();
  if (running !== pinned)
    throw new Error(
      `this runs on Node.js ${running}, the project pins ${pinned} (.nvmrc); start it through npm (npm start), which runs node_modules/.bin/node`,
    );
  return pinned;
}
