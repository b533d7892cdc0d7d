/**
 * Issue 24 part 2, against the real API server with CAPI v1.12 and CAPO v0.14 webhooks: kaas's render
 * (Cluster API v1beta2) is accepted without a deprecation warning, where the previous kaas's v1beta1
 * render draws one per Cluster API kind; and a cluster the previous kaas created (its v1beta1 render,
 * server-side applied with kaas's field manager, as `create-cluster --no-wait` did) re-runs with the new
 * kaas planning and changing nothing. Cluster names start with `v2` (the testbed is shared).
 */
import { parseAllDocuments } from 'yaml';
import { parseDocuments, stringifyDocuments } from '../../lib/render/documents.js';
import { previousRender } from '../support/v1beta1-render.js';
import { getObject, kaas, kaasDelete, kaasWrites, kaasUser, kubectl, leakedSecrets, renderedCluster, RES, serverDryRun, tail, type KaasUser } from './support.js';

const RENDER = 'v2render';
const SWITCH = 'v2switch';
const SETS = ['restrict_kubeapi='];
let u: KaasUser;

const warnings = (stderr: string) => stderr.split('\n').filter((l) => /^Warning: /.test(l)).sort();
const CAPI_WARNINGS = [
  'Warning: bootstrap.cluster.x-k8s.io/v1beta1 KubeadmConfigTemplate is deprecated; use bootstrap.cluster.x-k8s.io/v1beta2 KubeadmConfigTemplate',
  'Warning: cluster.x-k8s.io/v1beta1 Cluster is deprecated; use cluster.x-k8s.io/v1beta2 Cluster',
  'Warning: cluster.x-k8s.io/v1beta1 MachineDeployment is deprecated; use cluster.x-k8s.io/v1beta2 MachineDeployment',
  'Warning: controlplane.cluster.x-k8s.io/v1beta1 KubeadmControlPlane is deprecated; use controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlane',
];

beforeAll(async () => {
  u = kaasUser();
  for (const ns of [RENDER, SWITCH]) await kubectl(['delete', 'namespace', ns, '--ignore-not-found', '--wait=true'], { timeoutMs: 300_000 });
}, 600_000);

afterAll(async () => {
  if ((await getObject(RES.cluster, SWITCH, SWITCH)) !== undefined) {
    const r = await kaasDelete(u, SWITCH, 1_200_000);
    if (r.code !== 0) process.stderr.write(`cleanup: delete-cluster ${SWITCH}: ${tail(r)}\n`);
  }
  for (const ns of [RENDER, SWITCH]) await kubectl(['delete', 'namespace', ns, '--ignore-not-found', '--wait=false']);
}, 1_300_000);

describe('Cluster API v1beta2 on the testbed', () => {
  test('kaas\'s rendered set passes the real server-side dry-run with no deprecation warning; the previous v1beta1 render draws one per Cluster API kind', async () => {
    const r = await renderedCluster(u, RENDER, SETS);
    expect({ code: r.run.code, out: r.run.code === 0 ? '' : tail(r.run) }).toEqual({ code: 0, out: '' });
    const kinds = parseAllDocuments(r.yaml).map((d) => d.toJS()).filter(Boolean).map((o: { kind: string; apiVersion: string }) => `${o.kind} ${o.apiVersion}`);
    expect(kinds).toEqual(expect.arrayContaining(['Cluster cluster.x-k8s.io/v1beta2', 'KubeadmControlPlane controlplane.cluster.x-k8s.io/v1beta2', 'MachineDeployment cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate bootstrap.cluster.x-k8s.io/v1beta2']));
    await kubectl(['create', 'namespace', RENDER]);
    const now = await serverDryRun(r.yaml);
    expect({ code: now.code, stderr: now.stderr }).toEqual({ code: 0, stderr: '' });
    expect(now.stdout.split('\n').filter((l) => l.includes('serverside-applied (server dry run)'))).toHaveLength(8);
    // The same objects as the previous kaas rendered them: accepted, but with the API server's warnings.
    const before = await serverDryRun(stringifyDocuments(previousRender(parseDocuments(r.yaml, 'cluster.yaml'))));
    expect(before.code).toBe(0);
    expect(warnings(before.stderr)).toEqual(CAPI_WARNINGS);
  });

  test('a cluster the previous kaas created (v1beta1) re-runs with the new kaas: planned unchanged, nothing applied, generations unchanged', async () => {
    const r = await renderedCluster(u, SWITCH, SETS);
    expect(r.run.code).toBe(0);
    const old = stringifyDocuments(previousRender(parseDocuments(r.yaml, 'cluster.yaml')));
    await kubectl(['create', 'namespace', SWITCH]);
    const created = await kubectl(['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'], { input: old });
    expect({ code: created.code, warnings: warnings(created.stderr) }).toEqual({ code: 0, warnings: CAPI_WARNINGS });
    // The real server stores v1beta2 and reads it back so.
    const kcp = await getObject(RES.kcp, `${SWITCH}-control-plane`, SWITCH);
    expect(kcp!.spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs).toEqual([{ name: 'cloud-provider', value: 'external' }]);

    const dry = await kaas(u, ['create-cluster', SWITCH, '--dry-run', '-o', 'json'], { sets: SETS });
    expect({ code: dry.code, out: dry.code === 0 ? '' : tail(dry) }).toEqual({ code: 0, out: '' });
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; name: string; action: string; fields: { path: string }[] }[] } }).live;
    expect(live.objects.length).toBeGreaterThanOrEqual(7);
    expect(live.objects.filter((o) => o.action !== 'unchanged').map((o) => `${o.kind}/${o.name} ${o.action}: ${o.fields.map((f) => f.path).join(', ')}`)).toEqual([]);

    const gen = async () => {
      const out: Record<string, number | undefined> = {};
      for (const [res, name] of [[RES.cluster, SWITCH], [RES.openStackCluster, SWITCH], [RES.kcp, `${SWITCH}-control-plane`], [RES.md, `${SWITCH}-md-0`]] as const) {
        out[`${res.split('.')[0]}/${name}`] = (await getObject(res, name, SWITCH))?.metadata.generation;
      }
      return out;
    };
    const before = { gen: await gen(), rv: await kaasWrites(SWITCH) };
    const run = await kaas(u, ['create-cluster', SWITCH, '--no-wait', '--new-cluster'], { sets: SETS });
    expect({ code: run.code, out: run.code === 0 ? '' : tail(run) }).toEqual({ code: 0, out: '' });
    expect(run.stdout + run.stderr).toContain(`cluster ${SWITCH}: no changes`);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/deprecated/);
    expect(await gen()).toEqual(before.gen);
    const after = await kaasWrites(SWITCH);
    for (const k of [...before.rv.keys()].filter((k) => /^(OpenStackMachineTemplate|KubeadmConfigTemplate|Secret)\//.test(k))) {
      expect(`${k} ${after.get(k)}`).toBe(`${k} ${before.rv.get(k)}`);
    }
  });

  test('a change on that cluster is applied in v1beta2 over the v1beta1 apply (same field manager): only the changed field moves', async () => {
    const sets = [...SETS, 'worker_count=2'];
    const dry = await kaas(u, ['create-cluster', SWITCH, '--dry-run', '-o', 'json'], { sets });
    expect(dry.code).toBe(0);
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; action: string; fields: { path: string }[] }[] } }).live;
    expect(live.objects.filter((o) => o.action !== 'unchanged').map((o) => `${o.kind} ${o.action}: ${o.fields.map((f) => f.path).join(', ')}`)).toEqual(['MachineDeployment update: spec.replicas']);
    const run = await kaas(u, ['create-cluster', SWITCH, '--no-wait', '--new-cluster'], { sets });
    expect({ code: run.code, out: run.code === 0 ? '' : tail(run) }).toEqual({ code: 0, out: '' });
    const md = await kubectl(['get', RES.md, `${SWITCH}-md-0`, '-n', SWITCH, '-o', 'json', '--show-managed-fields']);
    const o = JSON.parse(md.stdout) as { spec: { replicas: number }; metadata: { managedFields: { manager: string; operation: string; apiVersion: string }[] } };
    expect(o.spec.replicas).toBe(2);
    // kaas's one Apply entry is now the v1beta2 one (it replaced the v1beta1 apply of the previous kaas).
    expect(o.metadata.managedFields.filter((m) => m.manager === 'kaas').map((m) => `${m.operation} ${m.apiVersion}`)).toEqual(['Apply cluster.x-k8s.io/v1beta2']);
    const again = await kaas(u, ['create-cluster', SWITCH, '--no-wait', '--new-cluster'], { sets });
    expect(again.stdout + again.stderr).toContain(`cluster ${SWITCH}: no changes`);
  });

  test('delete-cluster of the switched cluster finishes', async () => {
    const r = await kaasDelete(u, SWITCH, 1_200_000);
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    expect(await getObject(RES.cluster, SWITCH, SWITCH)).toBeUndefined();
  });

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});

