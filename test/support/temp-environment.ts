import { chmodSync, mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';
import { FILE_DIR_PREFIX, RUN_DIR_VAR } from './temp-check.js';
import { removeTempDirs } from './temp.js';

/** The per-file temp dir's name: the test file's path below dist/test, readable in the teardown's report. */
function fileDirPrefix(testPath: string): string {
  const rel = testPath.split(`${path.sep}dist${path.sep}test${path.sep}`).pop() ?? path.basename(testPath);
  return `${FILE_DIR_PREFIX}${rel.replace(/\.test\.js$/, '').replaceAll(path.sep, '_')}-`;
}

/**
 * Jest's node environment, plus temp-dir hygiene per test file. Within a run that has its own temp
 * dir (test/support/temp-check.ts), each test file gets a sub-dir named after it as TMPDIR, so what it
 * leaves behind is reported under its name by the global teardown. When the file ends — after its
 * afterAll hooks, which may still use them — the directories its tempDir() calls made are removed;
 * the file's sub-dir is removed when that leaves it empty.
 */
export default class TempDirEnvironment extends TestEnvironment {
  private readonly fileDir?: string;
  private readonly runDir?: string;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    // Set before the file's process object (a copy of process.env) is made in the base constructor.
    const runDir = process.env[RUN_DIR_VAR];
    const fileDir = runDir ? mkdtempSync(path.join(runDir, fileDirPrefix(context.testPath))) : undefined;
    if (fileDir) {
      chmodSync(fileDir, 0o755);
      process.env.TMPDIR = fileDir;
    }
    super(config, context);
    this.runDir = runDir;
    this.fileDir = fileDir;
  }

  override async teardown(): Promise<void> {
    removeTempDirs(this.global);
    if (this.fileDir) {
      process.env.TMPDIR = this.runDir;
      if (readdirSync(this.fileDir).length === 0) rmdirSync(this.fileDir);
    }
    await super.teardown();
  }
}
