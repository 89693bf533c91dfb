import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildThenSwap } from '../../development/local/siteSwap';

/** A build like the sites': empties its folder, then writes its files one after another. */
const slowBuild = (label: string) => async (folder: string) => {
  await mkdir(folder, { recursive: true });
  for (const name of ['index.html', 'main.js', 'sw.js']) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await writeFile(path.join(folder, name), label);
  }
  // What the member app's build does last: reads back a file it wrote (for its size budget).
  readFileSync(path.join(folder, 'sw.js'));
};

describe('a site built beside its folder and swapped in', () => {
  let dist: string;
  beforeEach(() => (dist = mkdtempSync(path.join(os.tmpdir(), 'site-swap-'))));
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('lets two builds of one folder run at once: each completes, one whole build is left, nothing beside it', async () => {
    const outdir = path.join(dist, 'app');
    await Promise.all(['first', 'second', 'third'].map((label) => buildThenSwap(outdir, slowBuild(label))));
    const contents = readdirSync(outdir).map((name) => readFileSync(path.join(outdir, name), 'utf8'));
    expect(readdirSync(outdir).sort()).toEqual(['index.html', 'main.js', 'sw.js']);
    expect(new Set(contents).size).toBe(1);
    expect(readdirSync(dist)).toEqual(['app']);
  });

  it('leaves the served folder as it was when a build fails', async () => {
    const outdir = path.join(dist, 'app');
    await buildThenSwap(outdir, slowBuild('good'));
    await expect(
      buildThenSwap(outdir, async (folder) => {
        await mkdir(folder, { recursive: true });
        throw new Error('over budget');
      }),
    ).rejects.toThrow('over budget');
    expect(readFileSync(path.join(outdir, 'index.html'), 'utf8')).toBe('good');
    expect(readdirSync(dist)).toEqual(['app']);
  });
});
