import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';

/**
 * Builds a site into a folder of its own beside `outdir`, then puts it in place of `outdir`. Two
 * `npm start` of one checkout building at the same moment (the tests start several) then never
 * find their own files deleted half way by the other, and a host serving `outdir` reads the old
 * files or the new ones, not a folder being emptied.
 */
export async function buildThenSwap(outdir: string, build: (folder: string) => Promise<unknown>): Promise<void> {
  const own = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const staging = `${outdir}.building-${own}`;
  const retired = `${outdir}.retired-${own}`;
  try {
    await build(staging);
    // Another start may put its build in place between the two renames: move that one away too.
    for (let attempt = 0; ; attempt++) {
      await rm(retired, { recursive: true, force: true });
      await rename(outdir, retired).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      try {
        await rename(staging, outdir);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt >= 5) throw error;
      }
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(retired, { recursive: true, force: true });
  }
}
