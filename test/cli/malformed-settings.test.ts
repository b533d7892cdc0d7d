import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, runKaas } from '../support/cli.js';

const DIR = 'test/fixtures/malformed';
/** file (without .yaml) → message fragments stderr must contain. */
const EXPECTED = JSON.parse(readFileSync(path.join(ROOT, DIR, 'expected.json'), 'utf8')) as Record<string, string[]>;
const CASES = Object.entries(EXPECTED);
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describe('malformed settings files, through the built CLI', () => {
  it('the corpus has at least 30 files, each with expected fragments', () => {
    const files = readdirSync(path.join(ROOT, DIR)).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CASES)('settings validate --env %s: exit 2, names file and path, no stack trace', (name, fragments) => {
    const r = runKaas(['settings', 'validate', '--env', name, '--settings-dir', DIR]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${DIR}/${name}.yaml:`);
    for (const f of fragments) expect(r.stderr).toContain(f);
    expect(r.stderr).toMatch(/^error: invalid settings/m);
    expect(r.stderr).toMatch(/^hint: /m);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.code).toBe(2);
  });

  it.each(['enum-cluster', 'yaml-duplicate-key', 'unknown-key', 'legacy-conflict-cluster', 'cidr-host-bits'])(
    'settings show demo --env %s fails the same way',
    (name) => {
      const r = runKaas(['settings', 'show', 'demo', '--env', name, '--settings-dir', DIR]);
      expect(r.stdout).toBe('');
      for (const f of EXPECTED[name]) expect(r.stderr).toContain(f);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      expect(r.code).toBe(2);
    },
  );

  it('--verbose adds the stack trace', () => {
    const r = runKaas(['settings', 'validate', '--env', 'unknown-key', '--settings-dir', DIR, '--verbose']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(STACK_FRAME);
  });
});
