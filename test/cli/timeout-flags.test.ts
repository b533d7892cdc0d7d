import { runKaas } from '../support/cli.js';

describe('timeout flags must be positive numbers of seconds (built CLI)', () => {
  // NaN used to mean an endless wait for the LB address; -1 crashed axios with ERR_OUT_OF_RANGE (exit 1).
  it.each([
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout', 'abc'], /--timeout must be a positive number of seconds \(got not a number\)/],
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout=-1'], /--timeout must be a positive number of seconds \(got -1\)/],
    [['apply-ingress', 'demo', '--env', 'example', '--address-timeout', 'soon'], /--address-timeout must be a positive number of seconds \(got not a number\)/],
    [['apply-ingress', 'demo', '--env', 'example', '--rollout-timeout', '0'], /--rollout-timeout must be a positive number of seconds \(got 0\)/],
  ])('%j exits 2 with a usage error before doing anything', (args, message) => {
    const r = runKaas(args);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
