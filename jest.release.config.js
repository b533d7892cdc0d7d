/**
 * The release (test/release/*.test.ts): `npm run test:release` builds dist/release/ (`npm run release`:
 * the single-file executable, the npm tarball, SHA256SUMS), then runs these tests against it.
 */
export default {
  testEnvironment: '<rootDir>/dist/test/support/temp-environment.js',
  roots: ['<rootDir>/dist/test/release'],
  testMatch: ['**/*.test.js'],
  // What a test file leaves in the temp dir fails the run (test/support/temp-check.ts).
  globalSetup: '<rootDir>/dist/test/support/temp-global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/temp-global-teardown.js',
  testTimeout: 5 * 60_000,
  maxWorkers: 1,
  transform: {},
};
