import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compare } from './harness';
import type { BenchContext } from './context';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'main.js');

/** Cold start proxy: a fresh `node` importing the bundled app vs importing @azure/functions alone. */
export default async function coldImport(_context: BenchContext) {
  if (!existsSync(bundle)) execFileSync(process.execPath, [path.join(root, 'development', 'build.mjs')], { cwd: root });
  const importIn = (code: string) => () => {
    execFileSync(process.execPath, ['-e', code], { cwd: root, stdio: 'ignore' });
    return Promise.resolve();
  };
  return compare({
    title: 'Cold import of the bundled app (dist/main.js) vs @azure/functions alone',
    baseline: { name: "require('@azure/functions')", run: importIn("require('@azure/functions')") },
    subject: { name: "require('./dist/main.js')", run: importIn("require('./dist/main.js')") },
    iterations: 15,
    warmup: 2,
  });
}
