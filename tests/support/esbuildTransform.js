// Jest's transform for TypeScript (and the ESM-only packages jest.config.js lets through): esbuild
// strips types and writes CommonJS, file by file, with a source map so stack traces point
// at the TypeScript lines. Types are checked once by `npm run build`, not here; nothing here uses
// TypeScript's own API, so the compiler's version does not matter to the tests.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { transformSync, version } = require('esbuild');

/** The compiler options that change emitted code (class fields: tsconfig.json's ES2022 target). */
const tsconfigRaw = { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, esModuleInterop: true } };
const TARGET = `node${process.versions.node.split('.')[0]}`;
const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };

/**
 * tsc's CommonJS, which the tests were written against, lets jest.spyOn replace a module's export
 * (the exports are plain properties, and `import * as m` is the module's own exports object);
 * esbuild's are fixed getters, and `import * as m` a copy. Two of esbuild's helpers are adjusted
 * to match: the copied getters can be redefined, and an ES module's exports are not copied.
 */
const INTEROP = [
  {
    helper: 'var __copyProps =',
    from: '__defProp(to, key, { get: () => from[key], enumerable:',
    to: '__defProp(to, key, { configurable: true, get: () => from[key], enumerable:',
  },
  {
    helper: 'var __toESM =',
    from: 'var __toESM = (mod, isNodeMode, target) =>',
    // On the same line, so the source map's lines still hold.
    to: 'var __toESM = (mod, isNodeMode) => (!isNodeMode && mod && mod.__esModule ? mod : __copyToESM(mod, isNodeMode)), __copyToESM = (mod, isNodeMode, target) =>',
  },
];

function withInterop(code, file) {
  let adjusted = code;
  for (const { helper, from, to } of INTEROP) {
    if (!adjusted.includes(helper)) continue;
    if (!adjusted.includes(from))
      throw new Error(`esbuild ${version} changed its ${helper} helper; adjust INTEROP in ${__filename} (${file})`);
    adjusted = adjusted.replace(from, to);
  }
  return adjusted;
}

/** What else decides the output: esbuild's version, the Node.js target and this file's options. */
const SALT = `${version} ${TARGET} ${createHash('sha1').update(readFileSync(__filename)).digest('hex')}\0`;

module.exports = {
  process(source, file) {
    const { code, map } = transformSync(source, {
      loader: LOADERS[path.extname(file)] ?? 'js',
      format: 'cjs',
      target: TARGET,
      platform: 'node',
      sourcefile: file,
      sourcemap: 'external',
      sourcesContent: false,
      tsconfigRaw,
      // jest runs CommonJS without vm modules: import() becomes require(), as tsc's CommonJS does.
      supported: { 'dynamic-import': false },
    });
    return { code: withInterop(code, file), map };
  },
  getCacheKey(source, file) {
    return createHash('sha1').update(SALT).update(file).update('\0').update(source).digest('hex');
  },
};
