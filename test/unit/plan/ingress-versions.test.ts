import {
  BUNDLED_INGRESS_VERSIONS, defaultIngressVersion, findBundled, kubernetesMinor, rangeText, supportsKubernetes,
} from '../../../lib/plan/ingress-versions.js';

describe('bundled ingress-nginx versions', () => {
  it.each<[string, [number, number] | undefined]>([
    ['v1.33.4', [1, 33]], ['v1.33.x', [1, 33]], ['1.33', [1, 33]], [' v1.30 ', [1, 30]], ['v1', undefined], ['latest', undefined], ['v1.33.4-rc1', undefined],
  ])('kubernetesMinor(%j) = %j', (v, want) => expect(kubernetesMinor(v)).toEqual(want));

  it.each([['v1.14.5', 'v1.14.5'], ['1.14.5', 'v1.14.5'], ['v1.12.0', undefined]])('findBundled(%s) → %s', (v, want) => {
    expect(findBundled(v)?.version).toBe(want);
  });

  it('ranges print as minor–minor', () => {
    expect(BUNDLED_INGRESS_VERSIONS.map(rangeText)).toEqual(['1.31–1.35', '1.30–1.34', '1.25–1.29']);
  });

  it.each<[[number, number], string, boolean]>([
    [[1, 31], 'v1.15.1', true], [[1, 35], 'v1.15.1', true], [[1, 30], 'v1.15.1', false], [[1, 36], 'v1.15.1', false], [[2, 31], 'v1.15.1', false], [[0, 33], 'v1.15.1', false],
  ])('Kubernetes %j within %s: %s', (minor, version, ok) => {
    expect(supportsKubernetes(findBundled(version)!, minor)).toBe(ok);
  });

  it.each<[[number, number] | undefined, string, boolean]>([
    [[1, 33], 'v1.15.1', true], [[1, 30], 'v1.14.5', true], [[1, 27], 'v1.9.6', true], [[1, 36], 'v1.15.1', false], [[1, 24], 'v1.9.6', false], [undefined, 'v1.15.1', false],
  ])('default for %j is %s (in range: %s)', (minor, version, inRange) => {
    expect(defaultIngressVersion(minor)).toEqual({ pick: findBundled(version), inRange });
  });
});
