import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { useAround } from './around';

const root = path.resolve(__dirname, '..', '..');

export interface StartedBundle {
  child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
  /** What the process printed on stderr alone. */
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once the output contains `text`; rejects when the process ends first. */
  printed(text: string): Promise<void>;
}

export interface BuiltBundles {
  /** The folder the bundles are in: nowhere near the repository's node_modules. */
  outdir: string;
  /** Starts `<outdir>/<name>.js [args]` with plain node and only these variables (and PATH). */
  start(name: string, env: Record<string, string>, args?: readonly string[]): StartedBundle;
  /** Kills what is still running and removes the folder. */
  remove(): void;
}

/**
 * The production bundles as `npm run build` emits them (with esbuild's metafiles), copied into a
 * temporary folder of the caller's own, for tests that run a process as a box or a container runs
 * it: `node <bundle>.js`, no tsx, no devDependencies, nothing of the test's environment.
 */
export async function buildBundles(prefix: string): Promise<BuiltBundles> {
  const outdir = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  cpSync(await sharedBuild(), outdir, { recursive: true });
  const children: ChildProcess[] = [];
  return {
    outdir,
    start(name, env, args = []) {
      const child = spawn(process.execPath, [path.join(outdir, `${name}.js`), ...args], {
        cwd: outdir,
        env: { PATH: process.env['PATH'] ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      return watchProcess(child, name);
    },
    remove() {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}

/** Collects what `child` prints and when it exits; `name` names it in the error of a failed wait. */
export function watchProcess(child: ChildProcess, name: string): StartedBundle {
  let output = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => output.includes(text) && resolve();
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('exit', () => (output.includes(text) ? resolve() : reject(new Error(`${name} exited: ${output}`))));
      check();
    });
  return { child, output: () => output, stderr: () => stderr, exited, printed };
}

/**
 * The bundles built before a describe block's tests (see buildBundles) and removed after them,
 * with what is still running; declared before the services the bundles use, so they stop first.
 */
export function useBundles(prefix: string): Omit<BuiltBundles, 'remove'> {
  const built = useAround(
    `the ${prefix} bundles`,
    () => buildBundles(prefix),
    (bundles) => bundles.remove(),
    60_000,
  );
  return {
    get outdir() {
      return built().outdir;
    },
    start: (name, env, args) => built().start(name, env, args),
  };
}

let built: Promise<string> | undefined;

/**
 * One build of this source tree per test run, made by the first test file that asks for it while
 * the others wait: a full build takes seconds of CPU, and nine files use one. The run's folder is
 * TEST_BUILD_DIR (tests/support/globalSetup.ts, removed by the teardown); outside a jest run each
 * process builds once for itself. Callers copy it (buildBundles) or only read it.
 */
export function sharedBuild(): Promise<string> {
  const ready = prebuilt();
  built ??= ready ? Promise.resolve(ready) : buildOnceForTheRun(runDir(), 'build', ['--metafile']);
  return built;
}

/**
 * A full build of this very tree with its metafiles, made just before the run by whoever started
 * it (`.ci/run` builds dist/ so and names it in TEST_PREBUILT_DIR; globalSetup hands the run a copy
 * of its own): the run reads it instead of building the same again. Unset (a developer's run,
 * whose dist/ may be older than the sources), the run builds its own.
 */
function prebuilt(): string | undefined {
  const dir = process.env['TEST_PREBUILT_DIR'];
  if (!dir) return undefined;
  const absolute = path.resolve(root, dir);
  if (!existsSync(path.join(absolute, 'main.meta.json')))
    throw new Error(`TEST_PREBUILT_DIR=${dir} holds no build with metafiles: build it with \`node development/build.mjs --metafile\``);
  return absolute;
}

const sites = new Map<'app' | 'portal', Promise<string>>();

/**
 * The member app's or the portal's static files, built once per run like sharedBuild (about
 * twenty browser files serve one; a build each cost half a CPU-second apiece), apart from the
 * full build so that the first browser file waits for its own site only. Read only: answers the
 * folder the site is served from.
 */
export function sharedSite(site: 'app' | 'portal'): Promise<string> {
  let dir = sites.get(site);
  const ready = prebuilt();
  if (!dir && ready) {
    dir = Promise.resolve(path.join(ready, site));
    sites.set(site, dir);
  }
  if (!dir) {
    // Blocking, as the per-file builds were: a site builds in about a second, and the same build
    // run with execFile left a jest worker that would not exit gracefully at the end of the run.
    dir = buildOnceForTheRun(runDir(), `${site}-build`, ['--only', site], true).then((outdir) => path.join(outdir, site));
    sites.set(site, dir);
  }
  return dir;
}

const runDir = () => process.env['TEST_BUILD_DIR'] || mkdtempSync(path.join(os.tmpdir(), 'bundles-'));

async function buildOnceForTheRun(folder: string, name: string, args: readonly string[], blocking = false): Promise<string> {
  const outdir = path.join(folder, name);
  const [done, failed] = [path.join(folder, `${name}.done`), path.join(folder, `${name}.failed`)];
  let builder = true;
  try {
    mkdirSync(path.join(folder, `${name}.lock`), { recursive: false });
  } catch {
    builder = false;
  }
  if (builder) {
    try {
      const command = ['development/build.mjs', '--outdir', outdir, ...args];
      if (blocking) execFileSync(process.execPath, command, { cwd: root, stdio: 'pipe' });
      else await promisify(execFile)(process.execPath, command, { cwd: root });
      writeFileSync(done, '');
    } catch (error) {
      writeFileSync(failed, String(error instanceof Error ? error.message : error));
      throw error;
    }
    return outdir;
  }
  // Another file of this run builds: wait for its mark, but not past a bound, so that a builder
  // that died without one leaves no worker polling after its hook has timed out.
  for (const deadline = Date.now() + BUILD_WAIT_MS; Date.now() < deadline; await delay(200)) {
    if (existsSync(done)) return outdir;
    if (existsSync(failed)) throw new Error(`the run's build failed: ${readFileSync(failed, 'utf8')}`);
  }
  throw new Error(`the run's build in ${outdir} gave no mark within ${BUILD_WAIT_MS / 1000} s`);
}

const BUILD_WAIT_MS = 180_000;
