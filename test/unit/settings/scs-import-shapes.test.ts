import { notClusterctl, readClusterctl } from '../../../lib/import/clusterctl.js';

/** Issue 31, section 5: settings import takes only a clusterctl.yaml, with its merge keys, in linear time. */

describe('readClusterctl: the shape of a clusterctl.yaml', () => {
  it('merge keys are honoured: the merged values come in, the map\'s own keys win, each placed at its << line', () => {
    const text = 'base: &base\n  WORKER_MACHINE_COUNT: 5\n  NODE_CIDR: 10.8.0.0/20\nKUBERNETES_VERSION: v1.32.3\n<<: *base\nWORKER_MACHINE_COUNT: 2\n';
    const r = readClusterctl(text, 'c.yaml');
    expect(r.problems).toEqual([]);
    expect(r.raws.map((x) => [x.name, x.value, x.where])).toEqual([
      ['base', { WORKER_MACHINE_COUNT: 5, NODE_CIDR: '10.8.0.0/20' }, 'c.yaml:1:1'],
      ['KUBERNETES_VERSION', 'v1.32.3', 'c.yaml:4:1'],
      ['WORKER_MACHINE_COUNT', 2, 'c.yaml:6:1'],
      ['NODE_CIDR', '10.8.0.0/20', 'c.yaml:5:1'],
    ]);
  });

  it('a list of merged maps: the earlier map wins', () => {
    const r = readClusterctl('a: &a {NODE_CIDR: 10.1.0.0/20}\nb: &b {NODE_CIDR: 10.2.0.0/20, POD_CIDR: 192.168.0.0/16}\n<<: [*a, *b]\n', 'c.yaml');
    expect(r.raws.filter((x) => x.name.endsWith('_CIDR')).map((x) => [x.name, x.value])).toEqual([['NODE_CIDR', '10.1.0.0/20'], ['POD_CIDR', '192.168.0.0/16']]);
  });

  it('an alias used as a key is refused, not taken literally', () => {
    expect(readClusterctl('x: &k KUBERNETES_VERSION\n*k : v1.32.3\n', 'c.yaml').problems).toEqual(['c.yaml:2:1: an alias (*k) is used as a key; write the key out']);
  });

  it('a duplicate key is named with its line', () => {
    expect(readClusterctl('KUBERNETES_VERSION: v1.32.3\nKUBERNETES_VERSION: v1.31.0\n', 'c.yaml').problems).toEqual(['c.yaml:2:1: KUBERNETES_VERSION: the key is given twice']);
  });

  // Its time (yaml's uniqueKeys made 50 000 keys take 78 s) is measured by test/bench/clusterctl-parse.bench.ts,
  // never here: speed targets live in benchmarks.
  it('50 000 keys are all read, and a duplicate of the first one at the end is still named', () => {
    const text = [...Array.from({ length: 50_000 }, (_, i) => `K${i}: ${i}`), 'K0: again'].join('\n');
    const r = readClusterctl(text, 'c.yaml');
    expect(r.raws.length).toBeGreaterThanOrEqual(50_000);
    expect(r.problems).toEqual(['c.yaml:50001:1: K0: the key is given twice']);
  });
});

describe('notClusterctl: a file that is not a clusterctl.yaml is named for what it looks like', () => {
  it.each([
    [['clouds'], 'it looks like a clouds.yaml (clouds:)'],
    [['kubernetes_version', 'worker_count'], 'it looks like a kaas settings file (lower-case setting names)'],
    [['clusters'], 'it looks like a kaas settings file (lower-case setting names)'],
    [['version', 'services'], 'it looks like a compose file (services:)'],
    [[], 'it holds no KEY: value at all'],
    [['replicaCount', 'image', 'podAnnotations', 'tolerations'], 'its keys (replicaCount, image, podAnnotations, …) are not SCS variables'],
  ])('%j', (keys, looks) => {
    expect(notClusterctl(keys, 'f.yaml')).toEqual([`f.yaml: not a clusterctl.yaml: ${looks}; a clusterctl.yaml sets upper-case SCS variables such as KUBERNETES_VERSION: "v1.32.3"`]);
  });

  it('one SCS variable is enough', () => {
    expect(notClusterctl(['comment', 'KUBERNETES_VERSION'], 'f.yaml')).toEqual([]);
  });
});
