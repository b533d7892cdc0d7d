import { BUILD } from 'kaas-gen:build-info';
import type { BuildInfo } from './build-info.js';

/** Twin of build-info.ts in the bundled CLI: version and commit as the build recorded them. */
export function buildInfo(): BuildInfo {
  return { ...BUILD };
}
