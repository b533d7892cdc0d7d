// Mutation testing over the pure decisions, the OpenStack adapters and the renderers
// (`npm run test:mutation`; not part of `npm test` or CI: see README "Mutation testing").
// The tests run compiled, so Stryker instruments the TypeScript in its sandbox, compiles it with
// tsc there (buildCommand), and runs the unit tests from dist/ with jest (ESM needs the VM flag).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: { configFile: 'jest.stryker.config.js', enableFindRelatedTests: false },
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'],
  // The sandbox lies in .stryker-tmp/<sandbox>/; node_modules is linked in only after the build.
  buildCommand: 'node ../../node_modules/typescript/bin/tsc -p tsconfig.json',
  // The *.bundle.ts twins run only in the bundled CLI (dist/bundle), which the unit tests do not load;
  // test/cli/bundle-equivalence.test.ts holds them to the run-time modules they stand in for.
  mutate: ['lib/plan/**/*.ts', 'lib/openstack/**/*.ts', 'lib/render/**/*.ts', '!lib/**/*.bundle.ts'],
  ignorePatterns: ['dist', 'reports', '.stryker-tmp'],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level constants such as the provider and add-on tables) would each re-run
  // every test; the tables are asserted value by value in the table tests instead.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
