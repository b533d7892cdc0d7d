/** Tests are compiled by `tsc` first (npm test runs the build), then run as native ESM. */
export default {
  // Node's environment, plus: each test file's tempDir()s are removed when it ends, and what it leaves
  // in the temp dir is reported under its name by the global teardown (test/support/temp-check.ts).
  testEnvironment: '<rootDir>/dist/test/support/temp-environment.js',
  roots: ['<rootDir>/dist/test'],
  testMatch: ['**/*.test.js'],
  // The testbed scenarios run inside the testbed's network namespace: npm test runs them after this suite
  // (dist/test/testbed/run.js, jest.testbed.config.js).
  // The release's executable is tested by `npm run test:release` (jest.release.config.js), which builds it first.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/test/testbed/', '<rootDir>/dist/test/release/'],
  globalSetup: '<rootDir>/dist/test/support/global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/global-teardown.js',
  testTimeout: 60000,
  maxWorkers: 2,
  transform: {},
};
