import { runKaas } from '../support/cli.js';

describe('timeout flags must be positive durations within the timer limit (built CLI)', () => {
  // NaN used to mean an endless wait for the LB address; -1 crashed axios with ERR_OUT_OF_RANGE (exit 1).
  it.each([
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout', 'abc'], /--timeout: "abc" is not a duration/],
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout=-1'], /--timeout: \"-1\" is not a duration/],
    [['apply-ingress', 'demo', '--env', 'example', '--address-timeout', 'soon'], /--address-timeout: \"soon\" is not a duration/],
    [['apply-ingress', 'demo', '--env', 'example', '--rollout-timeout', '0'], /--rollout-timeout: \"0\" is not a positive duration/],
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout', '2147484'], /longer than 2147483 s/],
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout', '25d'], /longer than 2147483 s/],
    [['detect', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json', '--timeout', '5 minutes'], /is not a duration/],
  ])('%j exits 2 with a usage error before doing anything', (args, message) => {
    const r = runKaas(args);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});
