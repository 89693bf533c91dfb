import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';

const root = path.resolve(__dirname, '../..');

/**
 * The browser code the portal may hold besides its own: what both front ends share, the kit
 * (web/kit) and the sign-in (web/signin, docs/decisions/010-sign-in.md), and the OAuth library it is built on.
 */
const SHARED_BROWSER_CODE = ['web/kit/', 'web/signin/', 'node_modules/oauth4webapi/'];

/** The bundle's source files that are neither the portal's own nor the shared sign-in: server code a value import would pull in. */
const foreignInputs = (metafile: Metafile) =>
  Object.keys(metafile.inputs).filter(
    (input) => !input.startsWith('portal/src/') && !SHARED_BROWSER_CODE.some((prefix) => input.startsWith(prefix)),
  );

/** The same bundling the portal build uses, of one probe module beside portal/src/types.ts. */
async function bundleProbe(source: string): Promise<Metafile> {
  const result = await build({
    stdin: { contents: source, resolveDir: path.join(root, 'portal', 'src'), sourcefile: 'probe.ts', loader: 'ts' },
    absWorkingDir: root,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    tsconfig: path.join(root, 'portal', 'tsconfig.json'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

describe('the portal bundle', () => {
  let outdir: string;
  let metafile: Metafile;

  beforeAll(() => {
    outdir = mkdtempSync(path.join(os.tmpdir(), 'portal-meta-'));
    execFileSync(process.execPath, [path.join(root, 'development', 'build.mjs'), '--only', 'portal', '--outdir', outdir, '--metafile'], {
      cwd: root,
      stdio: 'pipe',
    });
    metafile = JSON.parse(readFileSync(path.join(outdir, 'portal.meta.json'), 'utf8')) as Metafile;
  });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('is built from the portal pages', () => {
    expect(Object.keys(metafile.inputs)).toEqual(expect.arrayContaining(['portal/src/main.ts', 'portal/src/pages/diagnostics.ts']));
  });

  it('holds no server code and no library but the sign-in’s: the API types come from shared/ as types only', () => {
    expect(foreignInputs(metafile)).toEqual([]);
    expect(Object.keys(metafile.inputs)).toEqual(expect.arrayContaining(['web/signin/session.ts']));
  });

  it('types its API answers with the schemas of shared/', () => {
    const types = readFileSync(path.join(root, 'portal', 'src', 'types.ts'), 'utf8');
    const imports = [...types.matchAll(/^import (type )?[^;]*from '([^']+)';$/gm)].map(([, typeOnly, from]) => ({
      typeOnly: !!typeOnly,
      from: from ?? '',
    }));
    expect(imports.filter(({ from }) => from.startsWith('../../shared/')).length).toBeGreaterThan(0);
    expect(imports.filter(({ typeOnly }) => !typeOnly)).toEqual([]);
  });
});

describe('the check of the bundle', () => {
  it('would see it: a value import of a shared/ schema brings the schema and valibot along', async () => {
    const pulled = foreignInputs(
      await bundleProbe("import { CostSummarySchema } from '../../shared/costs/schemas';\nconsole.log(CostSummarySchema);"),
    );
    expect(pulled).toEqual(expect.arrayContaining(['shared/costs/schemas.ts', expect.stringMatching(/^node_modules\/valibot\//)]));
  });

  it('leaves a type-only import out, as the portal imports its API types', async () => {
    const pulled = foreignInputs(
      await bundleProbe(
        "import type { CostSummary } from './types';\nconst none: CostSummary | undefined = undefined;\nconsole.log(none);",
      ),
    );
    expect(pulled).toEqual([]);
  });
});
