// esbuild strips the types file by file (tests/support/esbuildTransform.js); `npm run build`
// checks them once for the whole project.
const transform = { '^.+\\.[cm]?[jt]s$': '<rootDir>/tests/support/esbuildTransform.js' };

// ESM-only packages (jose from 6 on) are turned into CommonJS by the same transform.
const transformIgnorePatterns = ['/node_modules/(?!jose/)'];

/**
 * Two projects on one axis:
 * - unit: `*.unit.test.ts`, pure logic; no database, no Azurite, nothing started.
 * - integration: every other `*.test.ts` (incl. `*.e2e.test.ts` over HTTP) against a fresh
 *   PostgreSQL database and a private Azurite started once for the run.
 * `npm test` runs both; `npm run test:unit` only the first.
 */
/** @type {import('jest').Config} */
module.exports = {
  // One more worker than the two cores: the browser and end-to-end files wait on timers, tokens
  // and child processes a good part of their run, and a third file fills those waits.
  maxWorkers: 3,
  testSequencer: '<rootDir>/tests/support/slowFirstSequencer.js',
  // A project-level testTimeout is ignored by jest (29 and 30 alike): the one value for both projects lives here.
  testTimeout: 30000,
  // Always run tests in workers, never in the jest process itself: workers start after
  // globalSetup and so inherit NODE_EXTRA_CA_CERTS for the fake cost provider's certificate.
  workerIdleMemoryLimit: '1GB',
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests', '<rootDir>/edge'],
      testMatch: ['**/*.unit.test.ts'],
      transform,
      transformIgnorePatterns,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      roots: ['<rootDir>/tests', '<rootDir>/edge'],
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: ['\\.unit\\.test\\.ts$'],
      transform,
      transformIgnorePatterns,
      globalSetup: '<rootDir>/tests/support/globalSetup.ts',
      globalTeardown: '<rootDir>/tests/support/globalTeardown.ts',
      setupFilesAfterEnv: ['<rootDir>/tests/support/perFile.ts'],
    },
  ],
};
