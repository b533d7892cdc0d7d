/**
 * Issue 20 item 4, settings the real webhooks refuse are refused by kaas before anything is applied
 * (review M3): an even controller_count with stacked etcd. kaas must exit 2 (a settings refusal) and
 * leave nothing behind — no namespace, no object on the management cluster, no network or load
 * balancer in the cloud. The real KubeadmControlPlane webhook's verdict comes from
 * `kubectl apply --server-side --dry-run=server` of the whole manifest kaas renders.
 */
import YAML from 'yaml';
import { capoResources, openstack } from './openstack.js';
import { getObject, kaas, kaasDelete, kaasUser, kubectl, leakedSecrets, renderedCluster, RES, serverDryRun, snapshot, tail, type KaasUser } from './support.js';

const CLUSTER = 'tbeven';
const NS = CLUSTER;
let u: KaasUser;

beforeAll(() => {
  u = kaasUser();
});

afterAll(async () => {
  if ((await getObject(RES.cluster, CLUSTER, NS)) !== undefined || (await getObject(RES.openStackCluster, CLUSTER, NS)) !== undefined) {
    const r = await kaasDelete(u, CLUSTER, 1_200_000);
    if (r.code !== 0) process.stderr.write(`cleanup: delete-cluster ${CLUSTER}: ${tail(r)}\n`);
  }
  await kubectl(['delete', 'namespace', NS, '--ignore-not-found', '--wait=false']);
}, 1_300_000);

describe('settings the real webhooks refuse', () => {
  test('controller_count 2: kaas refuses with exit 2 before anything is applied (no namespace, nothing stored, nothing built)', async () => {
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster'], { sets: ['controller_count=2'] });
    const ns = await kubectl(['get', 'namespace', NS, '--ignore-not-found', '-o', 'name']);
    const stored = [...(await snapshot(NS)).keys()];
    // On main: exit 1. kaas's `kubectl diff --server-side` runs the real KCP webhook, so nothing but the
    // namespace (created before the diff) is stored — not the half-built cluster the review saw on the
    // fake — but the refusal is kubectl's ("hint: the management cluster refused the objects"), not
    // kaas's settings check (exit 2), and the namespace stays behind.
    expect({ code: r.code, namespace: ns.stdout.trim(), stored }).toEqual({ code: 2, namespace: '', stored: [] });
    expect(r.stderr).toMatch(/controller_count/);
    const got = await capoResources(await openstack(), NS, CLUSTER);
    expect({ networks: got.networks.length, lbs: got.lbs.length }).toEqual({ networks: 0, lbs: 0 });
  });

  test('the rule kaas checks is the real one: the KCP webhook refuses kaas\'s render with 2 replicas (server dry-run over the whole manifest)', async () => {
    // kaas refuses controller_count 2 before rendering (above), so render 3 and set the replicas the
    // way a hand edit would: the real webhook's refusal is the rule kaas's settings check mirrors.
    const rendered = await renderedCluster(u, CLUSTER, ['controller_count=3']);
    expect(rendered.run.code).toBe(0);
    const docs = YAML.parseAllDocuments(rendered.yaml).map((d) => d.toJS() as { kind: string; spec: { replicas?: number } });
    docs.filter((d) => d.kind === 'KubeadmControlPlane').forEach((d) => { d.spec.replicas = 2; });
    rendered.yaml = docs.map((d) => YAML.stringify(d)).join('---\n');
    // A server dry-run of namespaced objects needs their namespace (else every object is NotFound).
    await kubectl(['create', 'namespace', NS]);
    const real = await serverDryRun(rendered.yaml);
    expect(real.code).not.toBe(0);
    expect(real.stderr).toContain('The KubeadmControlPlane "tbeven-control-plane" is invalid: spec.replicas: Forbidden: cannot be an even number when etcd is stacked');
    // The dry-run stored nothing.
    expect((await snapshot(NS)).size).toBe(0);
  });

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});
