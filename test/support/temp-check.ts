import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Set by `openRunTempDir` in the jest process: the run's private temp dir, and the TMPDIR before it. */
export const RUN_DIR_VAR = 'KAAS_TEST_RUN_TMPDIR';
const OUTER_VAR = 'KAAS_TEST_OUTER_TMPDIR';

const RUN_PREFIX = 'kaas-jest-run-';
/** The prefix of a test file's own temp dir inside the run's (test/support/temp-environment.ts). */
export const FILE_DIR_PREFIX = 'test-file-';

/** Removes the temp dirs of runs whose jest process is gone (killed before its teardown). */
function removeDeadRuns(outer: string): void {
  for (const name of readdirSync(outer)) {
    const pid = new RegExp(`^${RUN_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid && !existsSync(`/proc/${pid}`)) rmSync(path.join(outer, name), { recursive: true, force: true });
  }
}

/**
 * Global setup: gives the test run a private temp dir (`kaas-jest-run-<pid>-XXXXXX` under the system
 * one) and points TMPDIR at it, so that the jest workers, the kaas processes they start (cleanEnv
 * passes TMPDIR on) and their tools make their temporary files there. Other jest runs on the same
 * machine use their own, so `closeRunTempDir` sees only this run's leftovers.
 */
export function openRunTempDir(): void {
  const outer = os.tmpdir();
  removeDeadRuns(outer);
  const dir = mkdtempSync(path.join(outer, `${RUN_PREFIX}${process.pid}-`));
  // Other users may pass through, as through the system temp dir (a test writes as "nobody").
  chmodSync(dir, 0o755);
  process.env[OUTER_VAR] = process.env.TMPDIR ?? '';
  process.env[RUN_DIR_VAR] = dir;
  process.env.TMPDIR = dir;
}

/** The entries under `dir`, two levels deep (a test file's own dir, then what it left), sorted. */
function leftIn(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const inner = e.isDirectory() && e.name.startsWith(FILE_DIR_PREFIX) ? readdirSync(path.join(dir, e.name)) : [];
    out.push(...(inner.length ? inner.map((i) => `${e.name}/${i}`) : [e.name]));
  }
  return out.sort();
}

/**
 * Global teardown: removes the run's temp dir and returns what the tests left in it (sorted paths
 * relative to it, `test-file-<file>-XXXXXX/<entry>` for what a test file left; empty when every
 * test cleaned up after itself). A no-op returning [] without `openRunTempDir`.
 */
export function closeRunTempDir(): string[] {
  const dir = process.env[RUN_DIR_VAR];
  if (!dir) return [];
  let left: string[] = [];
  try {
    left = leftIn(dir);
  } catch {
    // Removed by someone else: nothing to report.
  }
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  const outer = process.env[OUTER_VAR];
  if (outer) process.env.TMPDIR = outer;
  else if (outer === '') delete process.env.TMPDIR;
  delete process.env[RUN_DIR_VAR];
  delete process.env[OUTER_VAR];
  return left;
}

/** The teardown's message for leftovers: which directories, and how to clean them up. */
export function leftoverMessage(left: string[]): string {
  return `[kaas tests] the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp dir (removed now):\n  ${left.join('\n  ')}\n`
    + 'make them with tempDir() from test/support/temp.ts (removed after each test file), or remove them in afterEach/afterAll; the name prefix says which helper or test made each';
}
