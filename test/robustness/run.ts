import { removeTempDirs } from '../support/temp.js';
import { runCorpus } from './corpus.js';

/**
 * `npm run test:robustness`: feeds the whole bad-input corpus to the built CLI and prints
 * `N bad inputs, N clear errors, 0 stack traces, 0 secrets`; exits 1 (listing each failure)
 * unless every input got a clear error with no stack trace and no secret. The corpus's temporary
 * files (settings, clouds.yaml, special files) are removed at the end, whatever it ends with.
 */
const { verdicts, summary } = await runCorpus().finally(() => removeTempDirs());
const bad = verdicts.filter((v) => !v.clear);
for (const v of bad) process.stderr.write(`FAIL ${v.case.suite}/${v.case.name} (kaas ${v.case.args.join(' ')})\n${v.problems.map((p) => `    ${p}`).join('\n')}\n`);
process.stdout.write(`${summary}\n`);
process.exitCode = bad.length ? 1 : 0;
