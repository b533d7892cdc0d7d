import { kaasVersion } from '../paths.js';

/** What a build of kaas is: its version and the git commit it was built from. */
export interface BuildInfo {
  version: string;
  /** The commit's full hash; undefined where no build recorded it (the tsc-built tree). */
  commit?: string;
  /** The checkout had changes that were not committed when it was built. */
  dirty?: boolean;
}

/**
 * This kaas's build. The tsc-built tree (checkout, tests) knows only its package.json's version;
 * the bundle and the single-file executable use the twin build-info.bundle.ts, whose values the
 * build recorded (build/generate.mjs, `kaas-gen:build-info`).
 */
export function buildInfo(): BuildInfo {
  return { version: kaasVersion() };
}
