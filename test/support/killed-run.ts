import { spawn } from 'node:child_process';
import path from 'node:path';
import { cleanEnv, KAAS, ROOT } from './cli.js';

const PRELOAD = path.join(ROOT, 'dist', 'test', 'support', 'pause-at.js');

/**
 * Runs the built kaas with `args`, stops it where `pause` says (see pause-at.ts), SIGKILLs it there
 * and resolves with its pid and what it printed. Rejects when it ended without reaching the pause.
 */
export function killedRun(args: string[], pause: string, env: Record<string, string> = {}): Promise<{ pid: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, KAAS, ...args], { cwd: ROOT, env: cleanEnv({ ...env, KAAS_TEST_PAUSE: pause }), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('PAUSED ')) child.kill('SIGKILL');
    });
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL' && stderr.includes('PAUSED ')) resolve({ pid: child.pid!, stderr });
      else reject(new Error(`kaas ${args.join(' ')} ended (${code ?? signal}) before pausing at ${pause}:\n${stderr}`));
    });
  });
}
