/**
 * Jest for mutation testing: the unit tests only (compiled under dist/), no OpenStack peer
 * (KAAS_PEER=skip, set by npm run test:mutation), and not the process-level kill test, whose
 * harness re-runs whole flows and covers nothing Stryker mutates that faster tests do not.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/dist/test/unit'],
  testMatch: ['**/*.test.js'],
  testPathIgnorePatterns: ['/create-flow-kill\\.test\\.js$'],
  globalSetup: '<rootDir>/dist/test/support/global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/global-teardown.js',
  testTimeout: 60000,
  transform: {},
};
