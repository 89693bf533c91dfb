import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { environments, root } from './settingsSources';

/**
 * One Node.js major for everything that runs the code outside a developer's machine: .nvmrc
 * names it; the function app's runtime, the worker image, the one-off replay container and every
 * workflow follow it, so CI tests on what production runs.
 */

const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
const pinned = read('.nvmrc').trim();
const workflowsDir = path.join(root, '.github', 'workflows');
const workflows = readdirSync(workflowsDir)
  .filter((file) => file.endsWith('.yml'))
  .map((file) => [file, read('.github', 'workflows', file)] as const);

describe('the Node.js runtime, pinned in .nvmrc', () => {
  it('names one major version that Flex Consumption offers', () => {
    expect(pinned).toMatch(/^(22|24)$/);
  });

  it.each(environments)('is the function app runtime of %s', (environment) => {
    expect(read('infra', 'env', `${environment}.bicepparam`)).toMatch(new RegExp(`^param nodeVersion = '${pinned}'$`, 'm'));
  });

  it('is what every workflow sets up, with no version of its own', () => {
    const setups = workflows.flatMap(([file, text]) => [...text.matchAll(/node-version(-file)?: ([^,}\n]+)/g)].map((m) => [file, m[0]]));
    expect(setups.length).toBeGreaterThan(5);
    expect(setups.filter(([, setup]) => setup !== 'node-version-file: .nvmrc')).toEqual([]);
    expect(workflows.filter(([, text]) => /matrix:\s*\n\s*#?.*\n?\s*node:/.test(text)).map(([file]) => file)).toEqual([]);
  });

  it('is the base of the worker image and of the one-off replay container', () => {
    expect(read('workers', 'Dockerfile')).toMatch(
      new RegExp(`^ARG NODE_VERSION=${pinned}$[\\s\\S]*^FROM node:\\$\\{NODE_VERSION\\}-`, 'm'),
    );
    const images = workflows.flatMap(([, text]) => [...text.matchAll(/\bnode:(\d+)-/g)].map((m) => m[1]));
    expect(images.filter((major) => major !== pinned)).toEqual([]);
  });
});
