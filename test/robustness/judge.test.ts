import { judge, TEST_SECRET, type Case } from './corpus.js';

/** The corpus runner's counts are real: a stack trace or a leaked test secret fails a case. */
describe('the robustness judge', () => {
  const base: Case = { suite: 'self-test', name: 'x', args: [], env: { HOME: '/nonexistent' }, exit: 2, fragments: [] };

  it('a clear error passes', async () => {
    const v = await judge({ ...base, args: ['settings', 'validate', '--set', 'mtu=big'], fragments: ['is not an integer from 0 to 9000'] });
    expect(v).toMatchObject({ clear: true, stackTrace: false, secret: false });
  });

  it('a stack trace (--verbose) is counted and fails the case', async () => {
    const v = await judge({ ...base, args: ['settings', 'validate', '--set', 'mtu=big', '--verbose'] });
    expect(v).toMatchObject({ clear: false, stackTrace: true });
  });

  it('a test secret echoed in the output is counted and fails the case', async () => {
    const v = await judge({ ...base, args: ['settings', 'validate', '--set', `mtu=${TEST_SECRET}-x`] });
    expect(v).toMatchObject({ clear: false, secret: true });
  });

  it('a missing fragment or another exit code fails the case', async () => {
    expect(await judge({ ...base, args: ['settings', 'validate', '--set', 'mtu=big'], fragments: ['no such words'] })).toMatchObject({ clear: false });
    expect(await judge({ ...base, args: ['settings', 'validate', '--set', 'mtu=big'], exit: 1 })).toMatchObject({ clear: false });
  });
});
