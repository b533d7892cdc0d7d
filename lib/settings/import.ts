import { OperationError } from '../errors.js';
import type { Logger } from '../log.js';

export interface ImportOptions {
  clusterctlFile: string;
  cloudConfFile?: string;
  harborSettingsFile?: string;
  cluster: string;
  settingsDir: string;
  env: string;
  cwd: string;
  dryRun: boolean;
  logger: Logger;
}

/** Placeholder until the import is written (in progress). */
export async function importScs(_opts: ImportOptions): Promise<{ data: unknown; text: string; raw?: string }> {
  throw new OperationError('settings import is not available yet');
}
