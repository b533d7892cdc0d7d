import { runCorpus } from './corpus.js';

/**
 * `npm run test:robustness`: feeds the whole bad-input corpus to the built CLI and prints
 * `N bad inputs, N clear errors, 0 stack traces, 0 secrets`; exits 1 (listing each failure)
 * unless every input got a clear error with no stack trace and no secret.
 */
const { verdicts, summary } = await runCorpus();
const bad = verdicts.filter((v) => !v.clear);
for (const v of bad) process.stderr.write(`FAIL ${v.case.suite}/${v.case.name} (kaas ${v.case.args.join(' ')})\n${v.problems.map((p) => `    ${p}`).join('\n')}\n`);
process.stdout.write(`${summary}\n`);
process.exitCode = bad.length ? 1 : 0;
