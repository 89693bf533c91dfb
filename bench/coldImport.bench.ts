import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { compare, type Comparison } from './harness';
import type { BenchContext } from './context';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'main.js');

/** A well-formed connection string; nothing is sent there: the import path never loads telemetry. */
const CONNECTION_STRING = 'InstrumentationKey=00000000-0000-0000-0000-000000000000;IngestionEndpoint=https://127.0.0.1:9/';

/** Each child prints the CPU time (user + system) it used up to the end of its import, bootstrap included. */
const REPORT_CPU = ";{ const { user, system } = process.cpuUsage(); process.stdout.write('cpu-ms=' + (user + system) / 1000 + '\\n'); }";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * Cold start proxy: a fresh `node` importing the bundled app vs importing @azure/functions alone,
 * once as configured by default and once with Application Insights configured (telemetry then
 * loads after the import, when the worker waits for its first invocation). Then what a group's
 * first request after a cold start pays for loading its area (docs/decisions/012-functions-load-their-area-on-first-use.md).
 */
export default async function coldImport(_context: BenchContext): Promise<Comparison[]> {
  if (!existsSync(bundle)) execFileSync(process.execPath, [path.join(root, 'development', 'build.mjs')], { cwd: root });
  const cpu = new Map<string, number[]>();
  const importIn =
    (label: string, code: string, env: Record<string, string | undefined> = process.env) =>
    () => {
      const out = execFileSync(process.execPath, ['-e', code + REPORT_CPU], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], env });
      // Marked: @azure/functions writes to stdout too (outside the worker, in its test mode).
      const used = Number(/cpu-ms=([\d.]+)/.exec(String(out))?.[1]);
      cpu.set(label, [...(cpu.get(label) ?? []), used]);
      return Promise.resolve();
    };
  const cpuDetail = (baseline: string, subject: string) => {
    const [b, s] = [median(cpu.get(baseline) ?? []), median(cpu.get(subject) ?? [])];
    return [`CPU time of each child (user + system, median of all runs): ${b.toFixed(1)} ms vs ${s.toFixed(1)} ms, ${(s / b).toFixed(2)}×`];
  };
  const withTelemetry = { ...process.env, APPLICATIONINSIGHTS_CONNECTION_STRING: CONNECTION_STRING };
  const plain = await compare({
    title: 'Cold import of the bundled app (dist/main.js) vs @azure/functions alone',
    baseline: { name: "require('@azure/functions')", run: importIn('functions', "require('@azure/functions')") },
    subject: { name: "require('./dist/main.js')", run: importIn('main', "require('./dist/main.js')") },
    iterations: 15,
    warmup: 2,
    target: 1.25,
  });
  plain.detail = cpuDetail('functions', 'main');
  const telemetered = await compare({
    title: 'Cold import with APPLICATIONINSIGHTS_CONNECTION_STRING set vs @azure/functions alone',
    baseline: { name: "require('@azure/functions')", run: importIn('functions2', "require('@azure/functions')") },
    subject: {
      name: "require('./dist/main.js') with telemetry configured",
      run: importIn('telemetry', "require('./dist/main.js')", withTelemetry),
    },
    iterations: 15,
    warmup: 2,
    target: 1.3,
  });
  telemetered.detail = cpuDetail('functions2', 'telemetry');
  return [plain, telemetered, firstRequests()];
}

/** One request per group: what it answers without a database (no token: 401; public: 200). */
const GROUPS: [name: string, path: string][] = [
  ['notifications', '/api/notifications'],
  ['challenges', '/api/challenges'],
  ['clubs', '/api/clubs/mine'],
  ['costs', '/api/admin/v1/costs/summary'],
  ['clubCatalog', '/api/admin/clubs'],
  ['trainingPlan', '/api/admin/clubs/1/training-plan'],
  ['diagnostics', '/api/admin/diagnostics/summary'],
  ['me', '/api/me'],
  ['authConfig', '/api/auth/config'],
  ['openapi', '/api/openapi.json'],
];

// A fresh process loads the bundle as the worker does, then times the group's first request
// (its area and the chunks it shares loading; wall clock and CPU time) and 20 more of the same
// (warm), in milliseconds.
const FIRST_REQUEST = `
  const Module = require('node:module');
  const handlers = new Map();
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (request === '@azure/functions-core') return { setProgrammingModel() {}, registerHook: () => ({ dispose() {} }), log() {}, registerFunction: (metadata, handler) => (handlers.set(metadata.name, handler), { dispose() {} }) };
    return load.call(this, request, ...rest);
  };
  require('./dist/main.js');
  const { HttpRequest, InvocationContext } = require('@azure/functions');
  // Node's fetch classes (undici) load with the first request object, whichever function it goes to: not timed.
  new HttpRequest({ method: 'GET', url: 'http://localhost/' }).headers.get('x');
  const [name, path] = process.argv.slice(1);
  const call = async () => {
    const started = performance.now();
    const response = await handlers.get(name)(new HttpRequest({ method: 'GET', url: 'http://localhost' + path }), new InvocationContext({ logHandler() {} }));
    if (response.status !== 200 && response.status !== 401) throw new Error(name + ' answered ' + response.status);
    return performance.now() - started;
  };
  (async () => {
    const cpu = process.cpuUsage();
    const first = await call();
    const { user, system } = process.cpuUsage(cpu);
    const warm = [];
    for (let i = 0; i < 20; i += 1) warm.push(await call());
    process.stdout.write(JSON.stringify({ first, firstCpu: (user + system) / 1000, warm: warm.sort((a, b) => a - b)[10] }));
  })();`;

function firstRequests(): Comparison {
  const rows = GROUPS.map(([name, path]) => {
    const runs = Array.from({ length: 5 }, () => {
      const out = execFileSync(process.execPath, ['-e', FIRST_REQUEST, name, path], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
      return JSON.parse(String(out)) as { first: number; firstCpu: number; warm: number };
    });
    const at = (key: 'first' | 'firstCpu' | 'warm') => median(runs.map((run) => run[key]));
    return { name, first: at('first'), firstCpu: at('firstCpu'), warm: at('warm') };
  });
  const notifications = rows[0] as (typeof rows)[number];
  return {
    title: "First request of a group after a cold start vs the same request warm (its area's code loads with the first)",
    baseline: { name: 'GET /api/notifications warm (no token: 401)', medianMs: notifications.warm, p90Ms: NaN, samples: 5 },
    subject: { name: 'GET /api/notifications first', medianMs: notifications.first, p90Ms: NaN, samples: 5 },
    ratio: notifications.first / notifications.warm,
    detail: rows.map(
      (row) =>
        `${row.name}: first ${row.first.toFixed(1)} ms (CPU ${row.firstCpu.toFixed(1)} ms), warm ${row.warm.toFixed(2)} ms (medians of 5 fresh processes)`,
    ),
  };
}
