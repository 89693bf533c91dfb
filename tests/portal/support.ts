import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/**
 * The portal built as `npm run build` builds it (development/build.mjs, portal/build.mjs), into a
 * folder of this test file's own. Returns the folder the app serves.
 */
export function buildPortal(): { dir: string; remove(): void } {
  const outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-build-'));
  execFileSync(process.execPath, [path.join(root, 'development', 'build.mjs'), '--only', 'portal', '--outdir', outdir], {
    cwd: root,
    stdio: 'pipe',
  });
  return { dir: path.join(outdir, 'portal'), remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** Where screenshots go (gitignored; CI uploads the folder). */
export function artifactPath(name: string): string {
  const dir = path.join(root, 'test-artifacts', 'portal');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
