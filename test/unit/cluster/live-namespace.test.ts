import { liveClusterNamespace } from '../../../lib/state/cluster-namespace.js';

describe('liveClusterNamespace: where the live Cluster is, and whether the run may converge on it', () => {
  it.each<[string, string[], string, string | undefined]>([
    ['no live Cluster', [], '', undefined],
    ['no live Cluster, namespace set', [], 'capi', undefined],
    ['one, namespace unset', ['demo'], '', 'demo'],
    ['one, the namespace set', ['capi'], 'capi', 'capi'],
  ])('%s', (_n, found, setting, want) => {
    expect(liveClusterNamespace('demo', found, setting)).toEqual({ ok: true, value: want, reasons: [], warnings: [] });
  });

  it.each<[string, string[], string, { message: string; hint: string }]>([
    ['several namespaces, listed sorted', ['b', 'a'], '', { message: 'Cluster demo exists in several namespaces (a, b)', hint: 'set the namespace setting to the one kaas manages' }],
    ['several namespaces even when one is the set one', ['capi', 'demo'], 'capi', { message: 'Cluster demo exists in several namespaces (capi, demo)', hint: 'set the namespace setting to the one kaas manages' }],
    ['another namespace than the set one', ['demo'], 'capi', {
      message: 'Cluster demo exists in namespace demo, not in namespace capi (setting namespace)',
      hint: 'if it is this environment\'s cluster, set namespace: demo to converge on it (kaas settings show shows where the setting comes from); '
        + 'if it is another environment\'s cluster of the same name, give this one another name or another management cluster: kaas keeps one Cluster of a name per management cluster' }],
  ])('refused: %s', (_n, found, setting, refusal) => {
    expect(liveClusterNamespace('demo', found, setting)).toEqual({ ok: false, reasons: [], refusals: [refusal] });
  });

  it('the namespace setting defaults to unset', () => {
    expect(liveClusterNamespace('demo', ['x'])).toMatchObject({ ok: true, value: 'x' });
  });
});
