/**
 * `npm run bench`: runs every test/bench/*.bench.ts (compiled) and prints each candidate's median
 * wall time as a ratio to its named baseline. Speed targets live here, never in unit tests.
 *   KAAS_BENCH_RUNS=N   runs per command (default 9)
 *   KAAS_BENCH_ONLY=re  only benches whose name matches
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench } from './measure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const runs = Number(process.env.KAAS_BENCH_RUNS ?? 9);
const only = process.env.KAAS_BENCH_ONLY ? new RegExp(process.env.KAAS_BENCH_ONLY) : undefined;

const files = readdirSync(here).filter((f) => f.endsWith('.bench.js')).sort();
let failed = 0;
console.log(`kaas benchmarks: median of ${runs} runs each (ratio = kaas / baseline; lower is better)`);
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(here, f)).href)) as { bench: Bench };
  const b = mod.bench;
  if (only && !only.test(b.name)) continue;
  const skipped = b.skip?.();
  if (skipped) {
    console.log(`${b.name.padEnd(34)} skipped: ${skipped}`);
    continue;
  }
  try {
    const r = await b.run(runs);
    console.log(`${b.name.padEnd(34)} ${r.candidateMs.toFixed(1).padStart(8)} ms  vs ${b.baseline}: ${r.baselineMs.toFixed(1)} ms  ratio ${(r.candidateMs / r.baselineMs).toFixed(2)}`);
    for (const n of r.notes ?? []) console.log(`${''.padEnd(36)}${n}`);
  } catch (e) {
    failed++;
    console.log(`${b.name.padEnd(34)} FAILED: ${(e as Error).message}`);
  }
}
process.exitCode = failed ? 1 : 0;
