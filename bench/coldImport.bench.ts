import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compare } from './harness';
import type { BenchContext } from './context';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'main.js');

/** A well-formed connection string; nothing is sent there: the import path never loads telemetry. */
const CONNECTION_STRING = 'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=https://127.0.0.1:9/';

/**
 * Cold start proxy: a fresh `node` importing the bundled app vs importing @azure/functions alone,
 * once as configured by default and once with Application Insights configured (telemetry then
 * loads after the import, when the worker waits for its first invocation).
 */
export default async function coldImport(_context: BenchContext) {
  if (!existsSync(bundle)) execFileSync(process.execPath, [path.join(root, 'development', 'build.mjs')], { cwd: root });
  const importIn =
    (code: string, env: Record<string, string | undefined> = process.env) =>
    () => {
      execFileSync(process.execPath, ['-e', code], { cwd: root, stdio: 'ignore', env });
      return Promise.resolve();
    };
  const withTelemetry = { ...process.env, APPLICATIONINSIGHTS_CONNECTION_STRING: CONNECTION_STRING };
  return [
    await compare({
      title: 'Cold import of the bundled app (dist/main.js) vs @azure/functions alone',
      baseline: { name: "require('@azure/functions')", run: importIn("require('@azure/functions')") },
      subject: { name: "require('./dist/main.js')", run: importIn("require('./dist/main.js')") },
      iterations: 15,
      warmup: 2,
      target: 1.25,
    }),
    await compare({
      title: 'Cold import with APPLICATIONINSIGHTS_CONNECTION_STRING set vs @azure/functions alone',
      baseline: { name: "require('@azure/functions')", run: importIn("require('@azure/functions')") },
      subject: { name: "require('./dist/main.js') with telemetry configured", run: importIn("require('./dist/main.js')", withTelemetry) },
      iterations: 15,
      warmup: 2,
      target: 1.3,
    }),
  ];
}
