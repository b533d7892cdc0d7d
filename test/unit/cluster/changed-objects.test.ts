import { changedObjects } from '../../../lib/cluster/create/apply.js';
import type { ObjectDiff } from '../../../lib/cluster/live/reconcile.js';
import type { KubeObject } from '../../../lib/render/documents.js';

const obj = (kind: string, name: string) => ({ apiVersion: 'v1', kind, metadata: { name } }) as KubeObject;
const diff = (kind: string, name: string, action: ObjectDiff['action']): ObjectDiff => ({ kind, name, action, fields: [] });
const names = (o: KubeObject[]) => o.map((x) => `${x.kind}/${x.metadata.name}`);

describe('changedObjects: a re-run applies only what the live plan found changed (CAPI v1.12 bumps the generation of every re-applied v1beta1 Cluster/KCP)', () => {
  const all = [obj('Secret', 'demo-cloud-config'), obj('OpenStackCluster', 'demo'), obj('KubeadmControlPlane', 'demo-control-plane'), obj('Cluster', 'demo')];
  it.each([
    ['first run: nothing live, every object is a create', all.map((o) => diff(o.kind, o.metadata.name, 'create')), names(all)],
    ['unchanged re-run: nothing to apply', all.map((o) => diff(o.kind, o.metadata.name, 'unchanged')), []],
    ['one update: only that object', [...all.slice(0, 3).map((o) => diff(o.kind, o.metadata.name, 'unchanged')), diff('Cluster', 'demo', 'update')], ['Cluster/demo']],
    ['objects without a diff entry are applied', [diff('Cluster', 'demo', 'unchanged')], names(all.slice(0, 3))],
    ['same name, other kind is not confused', [diff('Cluster', 'demo', 'unchanged')], ['Secret/demo-cloud-config', 'OpenStackCluster/demo', 'KubeadmControlPlane/demo-control-plane']],
  ])('%s', (_, diffs, expected) => {
    expect(names(changedObjects(all, diffs))).toEqual(expected);
  });
});
