import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(__dirname, '../..');

/**
 * The lint's circle rule (eslint.config.mjs `noImportCircle`) run by the eslint CLI on the given
 * files, written to a scratch folder inside the repository (so the packages resolve; `.data/` is
 * neither linted nor committed). Only the circle rule runs: the scratch files are in no tsconfig.
 */
async function lint(files: Record<string, string>): Promise<{ file: string; rule: string | null; message: string }[]> {
  mkdirSync(join(root, '.data'), { recursive: true });
  const dir = mkdtempSync(join(root, '.data', 'import-circle-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(
      join(dir, 'eslint.config.mjs'),
      `import tseslint from 'typescript-eslint';
import { noImportCircle } from ${JSON.stringify(join(root, 'eslint.config.mjs'))};
export default [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, noImportCircle];
`,
    );
    const eslint = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
    const { stdout } = await promisify(execFile)(process.execPath, [eslint, '--format', 'json', ...Object.keys(files)], { cwd: dir }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }),
    );
    const results = JSON.parse(stdout) as { filePath: string; messages: { ruleId: string | null; message: string }[] }[];
    return results.flatMap((result) =>
      result.messages.map((message) => ({ file: result.filePath.slice(dir.length + 1), rule: message.ruleId, message: message.message })),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the lint refuses import circles', () => {
  it('two modules importing each other are both reported', async () => {
    const problems = await lint({
      'a.ts': "import { b } from './b';\nexport const a = () => b();\n",
      'b.ts': "import { a } from './a';\nexport const b = () => a();\n",
    });
    expect(problems).toEqual([
      { file: 'a.ts', rule: 'import-x/no-cycle', message: expect.stringContaining('cycle') as string },
      { file: 'b.ts', rule: 'import-x/no-cycle', message: expect.stringContaining('cycle') as string },
    ]);
  }, 60_000);

  it('a longer circle is reported too, and one-way imports are not', async () => {
    const problems = await lint({
      'a.ts': "import { b } from './b';\nexport const a = () => b();\n",
      'b.ts': "import { c } from './c';\nexport const b = () => c();\n",
      'c.ts': "import { a } from './a';\nexport const c = () => a();\n",
      'd.ts': "import { a } from './a';\nexport const d = () => a();\n",
    });
    expect(problems.map((problem) => problem.file)).toEqual(['a.ts', 'b.ts', 'c.ts']);
  }, 60_000);
});
