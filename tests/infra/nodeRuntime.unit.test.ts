import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assertPinnedNode } from '../../development/local/nodeRuntime';
import { environments, root } from './settingsSources';

/**
 * One Node.js version for everything: .nvmrc names it; package.json installs exactly that
 * runtime (the `node` devDependency, so the npm scripts run it even where the system Node is
 * older); the function app's runtime, the worker image, the bundles' target and every workflow
 * follow it, so the tests run on what production runs.
 */

const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
const pinned = read('.nvmrc').trim();
const major = pinned.split('.')[0];
const packageJson = JSON.parse(read('package.json')) as {
  engines: Record<string, string>;
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const workflowsDir = path.join(root, '.github', 'workflows');
const workflows = readdirSync(workflowsDir)
  .filter((file) => file.endsWith('.yml'))
  .map((file) => [file, read('.github', 'workflows', file)] as const);

describe('the Node.js runtime, pinned in .nvmrc', () => {
  it('is one exact version of a major that Flex Consumption offers', () => {
    expect(pinned).toMatch(/^(22|24)\.\d+\.\d+$/);
  });

  it('is the Node.js these tests run on', () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('is the runtime package.json installs and requires', () => {
    expect(packageJson.devDependencies['node']).toBe(pinned);
    expect(packageJson.engines['node']).toBe(pinned);
    // The runtime package installs its binary in a preinstall script.
    expect(packageJson.allowScripts['node']).toBe(true);
    // Type definitions of the same major.
    expect(packageJson.devDependencies['@types/node']?.split('.')[0]).toBe(major);
  });

  it('is read by the function app runtime, whatever the environment', () => {
    expect(read('infra', 'main.bicep')).toMatch(/^var nodeVersion = split\(trim\(loadTextContent\('\.\.\/\.nvmrc'\)\), '\.'\)\[0\]$/m);
    for (const environment of environments) expect(read('infra', 'env', `${environment}.bicepparam`)).not.toMatch(/nodeVersion/);
  });

  it('is what every workflow sets up, with no version of its own', () => {
    const setups = workflows.flatMap(([file, text]) => [...text.matchAll(/node-version(-file)?: ([^,}\n]+)/g)].map((m) => [file, m[0]]));
    expect(setups.length).toBeGreaterThan(5);
    expect(setups.filter(([, setup]) => setup !== 'node-version-file: .nvmrc')).toEqual([]);
    expect(workflows.filter(([, text]) => /matrix:\s*\n\s*#?.*\n?\s*node:/.test(text)).map(([file]) => file)).toEqual([]);
  });

  it('is the base of the worker image, and no workflow names another image of node', () => {
    expect(read('workers', 'Dockerfile')).toMatch(
      new RegExp(`^ARG NODE_VERSION=${pinned.replace(/\./g, '\\.')}$[\\s\\S]*^FROM node:\\$\\{NODE_VERSION\\}-`, 'm'),
    );
    const images = workflows.flatMap(([, text]) => [...text.matchAll(/\bnode:(\d[\d.]*)-/g)].map((m) => m[1]));
    expect(images.filter((version) => version !== pinned)).toEqual([]);
  });

  it('is the target of the cloud bundles', () => {
    expect(read('development', 'build.mjs')).toContain('target: entry.target ?? pinnedNode');
  });

  it('.ci/run checks the runtime the npm scripts will use before it runs them', () => {
    const script = read('.ci', 'run');
    expect(script.indexOf('node_modules/.bin/node')).toBeGreaterThan(script.indexOf('npm ci'));
    expect(script.indexOf('node_modules/.bin/node')).toBeLessThan(script.indexOf('npm run lint'));
  });
});

describe('the start guard', () => {
  it('accepts the pinned version', () => {
    expect(assertPinnedNode(`v${pinned}`)).toBe(`v${pinned}`);
  });

  it('refuses another version, naming both and how to start it', () => {
    expect(() => assertPinnedNode('v20.20.2')).toThrow(
      `this runs on Node.js v20.20.2, the project pins v${pinned} (.nvmrc); start it through npm`,
    );
  });
});
