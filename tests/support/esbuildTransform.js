// Jest's transform for TypeScript (and the ESM-only packages jest.config.js lets through): esbuild
// strips types and writes CommonJS, file by file, with an inline source map so stack traces point
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
    return { code, map };
  },
  getCacheKey(source, file) {
    return createHash('sha1').update(SALT).update(file).update('\0').update(source).digest('hex');
  },
};
