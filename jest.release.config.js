/**
 * The release (test/release/*.test.ts): `npm run test:release` builds dist/release/ (`npm run release`:
 * the single-file executable, the npm tarball, SHA256SUMS), then runs these tests against it.
 */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/dist/test/release'],
  testMatch: ['**/*.test.js'],
  testTimeout: 5 * 60_000,
  maxWorkers: 1,
  transform: {},
};
