import fs from 'node:fs';
import path from 'node:path';
import { KaasError, UsageError } from '../../../lib/errors.js';
import { resolveCloudConfig } from '../../../lib/openstack/cloud-config.js';
import { clearSecrets } from '../../../lib/redact.js';
import { TEST_SECRET } from '../../robustness/corpus.js';
import { tempDir } from '../../support/temp.js';

/**
 * The malformed clouds.yaml files of the robustness corpus (test/fixtures/malformed/clouds, run
 * through the CLI by test/robustness), resolved in-process: the same expected fragments, a usage
 * error (exit 2) and no test secret anywhere in what the user would see.
 */
const DIR = path.resolve(process.cwd(), 'test/fixtures/malformed/clouds');
const expected = JSON.parse(fs.readFileSync(path.join(DIR, 'expected.json'), 'utf8')) as Record<string, string[]>;
const empty = tempDir('kaas-clouds-corpus-');

afterEach(() => clearSecrets());

describe('malformed clouds.yaml (robustness corpus)', () => {
  it.each(Object.entries(expected))('%s: a usage error with the expected text and no secret', (name, fragments) => {
    const file = path.join(DIR, `${name}.yaml`);
    let err: unknown;
    try {
      resolveCloudConfig({ environ: { OS_CLIENT_CONFIG_FILE: file }, cwd: empty, home: empty, etcDir: empty, cloudFlag: 'c' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    const { message, problems, hint, exitCode } = err as KaasError;
    expect(exitCode).toBe(2);
    const shown = [message, ...problems, hint ?? ''].join('\n');
    for (const f of fragments) expect(shown).toContain(f);
    expect(shown).not.toContain(TEST_SECRET);
  });
});
