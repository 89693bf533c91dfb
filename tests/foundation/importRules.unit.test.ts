import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

/** Folders under shared/ that are infrastructure, not areas. */
const INFRASTRUCTURE = new Set(['http', 'db', 'config', 'log', 'auth', 'storage', 'host', 'health', 'errors']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts|js|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier a file imports, re-exports or requires, resolved to a path from the repository root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map(
    (match) => match[1] ?? '',
  );
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(root, path.resolve(path.dirname(file), specifier)));
}

function violations(files: readonly string[], forbidden: (target: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((target) => `${path.relative(root, file)} -> ${target}`),
  );
}

const areaFolders = readdirSync(path.join(root, 'shared'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !INFRASTRUCTURE.has(entry.name))
  .map((entry) => entry.name);

describe('import rules', () => {
  it('finds the area folders it checks', () => {
    expect(areaFolders).toEqual(expect.arrayContaining(['clubMaster', 'notifications', 'clubs']));
  });

  it.each(areaFolders)('shared/%s imports nothing from shared/http (domain errors instead of HTTP problems)', (area) => {
    const files = sourceFiles(path.join(root, 'shared', area));
    expect(violations(files, (target) => target === 'shared/http' || target.startsWith('shared/http/'))).toEqual([]);
  });

  it.each(['edge', 'ops', 'workers', 'functions', 'shared'])(
    '%s/ imports nothing from development/ (production code runs without the development tooling)',
    (folder) => {
      const files = sourceFiles(path.join(root, folder));
      expect(violations(files, (target) => target === 'development' || target.startsWith('development/'))).toEqual([]);
    },
  );

  it('sees relative imports of every form, so a violation cannot hide behind the syntax', () => {
    const file = path.join(root, 'shared', 'example', 'x.ts');
    const forms = [`import { a } from '../http/problem';`, `export * from '../http/route';`, `await import('../http/guards');`];
    for (const form of forms) {
      const specifier = /['"]([^'"]+)['"]/.exec(form)?.[1] ?? '';
      expect(path.relative(root, path.resolve(path.dirname(file), specifier)).startsWith('shared/http/')).toBe(true);
      expect([...form.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)]).toHaveLength(1);
    }
  });
});
