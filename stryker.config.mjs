// Mutation testing over the pure decisions, the OpenStack adapters and the renderers
// (`npm run test:mutation`; not part of `npm test` or CI: see README "Mutation testing").
// The tests run compiled, so Stryker instruments the TypeScript in its sandbox, compiles it with
// tsc there (buildCommand), and runs the unit tests from dist/ with jest (ESM needs the VM flag).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The golden tests read upstream manifests from ../shared/reference relative to the working
// directory; the sandbox lies two levels deeper, so point them at the checkout's reference data.
const root = path.dirname(fileURLToPath(import.meta.url));
process.env.KAAS_REFERENCE_DIR ??= path.resolve(root, '..', 'shared', 'reference');
// Several scoped runs may go at once (each with its own --tempDirName under .stryker-tmp/ and its
// own KAAS_MUTATION_REPORT), so nothing below depends on how deep the sandbox lies.
const report = process.env.KAAS_MUTATION_REPORT ?? 'mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: { configFile: 'jest.stryker.config.js', enableFindRelatedTests: false },
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'],
  // node_modules is linked into the sandbox only after the build: run the checkout's tsc.
  buildCommand: `node ${path.join(root, 'node_modules', 'typescript', 'bin', 'tsc')} -p tsconfig.json`,
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
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
