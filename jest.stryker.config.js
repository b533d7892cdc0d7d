/**
 * Jest for mutation testing: the in-process unit tests (compiled under dist/), no OpenStack peer
 * (KAAS_PEER=skip, set by npm run test:mutation). Tests that spawn processes (fake kubectl /
 * clusterctl, the CLI, kubectl kustomize) are left out: each mutant would cost seconds of process
 * start-up, and a mutant that breaks a spawned flow makes it wait for its timeout; the decisions,
 * adapters and renderers they exercise are covered by the table tests run here.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/dist/test/unit'],
  testMatch: ['**/*.test.js'],
  testPathIgnorePatterns: [
    '/unit/support/', '/unit/kube/', '/unit/settings/',
    '/unit/cluster/(create-flow|create-flow-kill|delete-flow|cli)\\.test\\.js$',
    '/unit/ingress/(apply-flow|remove|scs-equivalence)\\.test\\.js$',
  ],
  globalSetup: '<rootDir>/dist/test/support/global-setup.js',
  globalTeardown: '<rootDir>/dist/test/support/global-teardown.js',
  testTimeout: 60000,
  transform: {},
};
