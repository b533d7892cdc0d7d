/**
 * The testbed scenarios (test/testbed/*.test.ts): run by `node dist/test/testbed/run.js` inside the
 * testbed's network namespace, one file at a time, after `test/testbed/testbed.sh start` (npm test does both).
 */
export default {
  testEnvironment: '<rootDir>/dist/test/support/temp-environment.js',
  roots: ['<rootDir>/dist/test/testbed'],
  testMatch: ['**/*.test.js'],
  // What a test file leaves in the temp dir fails the run (test/support/temp-check.ts).
  globalSetup: '<rootDir>/dist/test/support/temp-global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/temp-global-teardown.js',
  testTimeout: 15 * 60_000,
  maxWorkers: 1,
  transform: {},
};
