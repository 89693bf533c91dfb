import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Script } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { buildApp } from './support';

const root = path.resolve(__dirname, '../..');
/** The budget docs/decisions/009-member-app-ui.md states, in gzip bytes (sw: the service worker, docs/member-app.md). */
const BUDGET = { js: 40 * 1024, css: 8 * 1024, sw: 4 * 1024 };

/** The member app's build: what it emits, that it holds its size budget, and that a build over it fails. */
describe('member app build', () => {
  let build: ReturnType<typeof buildApp>;
  beforeAll(() => {
    build = buildApp();
  }, 60_000);
  afterAll(() => build?.remove());

  it('emits the service worker at a fixed name, a classic script the page does not load', () => {
    const worker = readFileSync(path.join(build.dir, 'sw.js'), 'utf8');
    // Registered without `type: 'module'`: it must parse as a classic script (no import or export).
    expect(() => new Script(worker, { filename: 'sw.js' })).not.toThrow();
    expect(readFileSync(path.join(build.dir, 'index.html'), 'utf8')).not.toContain('sw.js');
  });

  it('emits the texts of each language as a chunk of its own, which index.html does not load', () => {
    const files = readdirSync(build.dir);
    const chunks = ['de', 'en'].map((language) => files.find((name) => new RegExp(`^${language}-[A-Z0-9]{8}\\.js$`).test(name)));
    expect(chunks).toEqual([expect.any(String), expect.any(String)]);
    const html = readFileSync(path.join(build.dir, 'index.html'), 'utf8');
    for (const chunk of chunks) expect(html).not.toContain(String(chunk));
    expect(readFileSync(path.join(build.dir, String(chunks[0])), 'utf8')).toContain('Hauptnavigation');
  });

  it('emits index.html naming hashed script and styles, and the favicon', () => {
    const files = readdirSync(build.dir).sort();
    const js = files.find((name) => /^main-[A-Z0-9]{8}\.js$/.test(name));
    const css = files.find((name) => /^styles-[A-Z0-9]{8}\.css$/.test(name));
    expect([js, css, files.includes('favicon.svg'), files.includes('index.html')]).toEqual([
      expect.any(String),
      expect.any(String),
      true,
      true,
    ]);
    const html = readFileSync(path.join(build.dir, 'index.html'), 'utf8');
    expect(html).toContain(`src="./${js}"`);
    expect(html).toContain(`href="./${css}"`);
    // Nothing inline: the CSP allows scripts and styles from the app's own files only.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|style=/);
  });

  it('stays within its gzip budget for the first screen, and prints the sizes it measured', () => {
    const gzipped = (pattern: RegExp) => {
      const name = readdirSync(build.dir).find((file) => pattern.test(file));
      if (!name) throw new Error(`no file ${String(pattern)}`);
      return gzipSync(readFileSync(path.join(build.dir, name)), { level: 9 }).length;
    };
    // The first screen loads the entry script and the texts of one language: the larger counts.
    const sizes = {
      js: gzipped(/^main-.*\.js$/) + Math.max(gzipped(/^de-.*\.js$/), gzipped(/^en-.*\.js$/)),
      css: gzipped(/^styles-.*\.css$/),
      sw: gzipped(/^sw\.js$/),
    };
    expect(sizes.js).toBeLessThanOrEqual(BUDGET.js);
    expect(sizes.css).toBeLessThanOrEqual(BUDGET.css);
    expect(sizes.sw).toBeLessThanOrEqual(BUDGET.sw);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
    expect(build.output).toContain(
      `Member app: JS ${kb(sizes.js)} gzip (budget ${kb(BUDGET.js)}), CSS ${kb(sizes.css)} gzip (budget ${kb(BUDGET.css)}), ` +
        `service worker ${kb(sizes.sw)} gzip (budget ${kb(BUDGET.sw)})`,
    );
  });

  it('fails the build when the script is over the budget', async () => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), 'app-over-budget-'));
    const script = `import('./app/build.mjs').then((m) => m.buildMemberApp({ outdir: ${JSON.stringify(outdir)}, budget: { js: 4096, css: 8192 }, log: () => {} }))`;
    try {
      const failure = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toMatch(/member app build: over budget: js \d+\.\d KB > 4\.0 KB/);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 60_000);
});
