import { readFileSync } from 'node:fs';
import path from 'node:path';
import { environments, root } from './settingsSources';

/**
 * No Bicep compiler runs on the development machines (the hosted runner compiles), so this catches
 * the wiring mistakes a compiler would: a module or parameter file passing a parameter that does
 * not exist, or leaving out one without a default.
 */

const infraDir = path.join(root, 'infra');
const read = (file: string) => readFileSync(path.join(infraDir, file), 'utf8');

interface Declared {
  name: string;
  required: boolean;
}

/** `param name type [= default]` lines of a Bicep file (decorators sit on their own lines). */
function declaredParams(bicep: string): Declared[] {
  return [...bicep.matchAll(/^param (\w+) [\w.]+( =)?/gm)].map((match) => ({ name: match[1] ?? '', required: !match[2] }));
}

/** The text between the `{` at `start` and its matching `}`. */
function block(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '{') depth++;
    if (text[i] === '}' && --depth === 0) return text.slice(start + 1, i);
  }
  throw new Error('unbalanced braces');
}

/** Keys at the top level of an object body. */
function topLevelKeys(body: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (const line of body.split('\n')) {
    const key = /^\s*(\w+):/.exec(line);
    if (depth === 0 && key?.[1]) keys.push(key[1]);
    depth += (line.match(/[{[]/g) ?? []).length - (line.match(/[}\]]/g) ?? []).length;
  }
  return keys;
}

function moduleCalls(bicep: string): { symbol: string; file: string; params: string[] }[] {
  return [...bicep.matchAll(/^module (\w+) '([^']+)' = /gm)].map((match) => {
    const body = block(bicep, bicep.indexOf('{', match.index));
    const paramsAt = body.indexOf('params: {');
    return {
      symbol: match[1] ?? '',
      file: match[2] ?? '',
      params: paramsAt < 0 ? [] : topLevelKeys(block(body, body.indexOf('{', paramsAt))),
    };
  });
}

function mismatch(passed: string[], declared: Declared[]) {
  return {
    unknown: passed.filter((name) => !declared.some((param) => param.name === name)),
    missing: declared.filter((param) => param.required && !passed.includes(param.name)).map((param) => param.name),
  };
}

describe('Bicep wiring', () => {
  const main = read('main.bicep');
  const calls = moduleCalls(main);

  it('finds the modules of main.bicep', () => {
    expect(calls.map((call) => call.symbol)).toEqual(
      expect.arrayContaining([
        'monitoring',
        'alerts',
        'keyVault',
        'storage',
        'postgres',
        'eventHubs',
        'functionApp',
        'ingestWorker',
        'costReader',
        'budget',
      ]),
    );
  });

  it.each(moduleCalls(read('main.bicep')).map((call) => [call.symbol, call] as const))(
    'module %s gets exactly the parameters it declares',
    (_symbol, call) => {
      const declared = declaredParams(read(call.file));
      expect({ file: call.file, ...mismatch(call.params, declared) }).toEqual({ file: call.file, unknown: [], missing: [] });
    },
  );

  it('reads only outputs the modules declare', () => {
    const files = new Map(calls.map((call) => [call.symbol, call.file]));
    const used = [...main.matchAll(/\b(\w+)\.outputs\.(\w+)/g)].map((match) => ({ module: match[1] ?? '', output: match[2] ?? '' }));
    expect(used.length).toBeGreaterThan(5);
    const undeclared = used.filter(({ module, output }) => {
      const file = files.get(module);
      return !file || !new RegExp(`^output ${output} `, 'm').test(read(file));
    });
    expect(undeclared).toEqual([]);
  });

  it.each(environments)('%s.bicepparam sets only parameters of main.bicep, and every required one', (environment) => {
    const file = read(path.join('env', `${environment}.bicepparam`));
    expect(file).toMatch(/^using '\.\.\/main\.bicep'$/m);
    const passed = [...file.matchAll(/^param (\w+) =/gm)].map((match) => match[1] ?? '');
    expect(mismatch(passed, declaredParams(main))).toEqual({ unknown: [], missing: [] });
  });

  it('notices a wrong parameter name, so a pass means something', () => {
    const declared = declaredParams('param location string\nparam tags object = {}\n');
    expect(mismatch(['locaton', 'tags'], declared)).toEqual({ unknown: ['locaton'], missing: ['location'] });
  });
});
