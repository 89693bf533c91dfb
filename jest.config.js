/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests', '<rootDir>/edge'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // Transpile only: `npm run typecheck` checks types once for the whole project.
    '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true, module: 'commonjs', moduleResolution: 'node', esModuleInterop: true } }],
  },
  globalSetup: '<rootDir>/tests/support/globalSetup.ts',
  globalTeardown: '<rootDir>/tests/support/globalTeardown.ts',
  setupFilesAfterEnv: ['<rootDir>/tests/support/perFile.ts'],
  maxWorkers: 2,
  testTimeout: 30000,
};
