import { contentHash } from '../../lib/cluster/render.js';
import type { KubeObject } from '../../lib/render/documents.js';

/**
 * What the previous kaas (on main until issue 24) rendered for the same settings: the Cluster API
 * kinds in v1beta1. Derived from today's v1beta2 render by undoing the v1beta2 changes kaas makes
 * (references with apiVersion, KubeadmControlPlane machineTemplate without `spec`, extra args as
 * maps, the KubeadmConfigTemplate named by the hash of its v1beta1 spec); test/unit/cluster/v1beta1-switch
 * holds it equal to the old golden file, so tests can create "a cluster of the previous kaas"
 * for any settings (the testbed's too) and re-run today's kaas on it.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The Cluster API kinds kaas renders in v1beta2 (CAPO kinds stay v1beta1 and are left as they are). */
export const CAPI_KINDS = ['KubeadmConfigTemplate', 'KubeadmControlPlane', 'MachineDeployment', 'Cluster'];

const ref = (r: Obj | undefined) => (r ? { apiVersion: `${r.apiGroup}/v1beta1`, kind: r.kind, name: r.name } : r);
const argsMap = (l: unknown) => (Array.isArray(l) ? Object.fromEntries(l.map((a: { name: string; value: string }) => [a.name, a.value])) : l);

function kubeadm(k: Obj | undefined): void {
  if (!k) return;
  for (const c of ['initConfiguration', 'joinConfiguration']) {
    const nr = k[c]?.nodeRegistration;
    if (nr?.kubeletExtraArgs) nr.kubeletExtraArgs = argsMap(nr.kubeletExtraArgs);
  }
  const cc = k.clusterConfiguration;
  for (const c of ['apiServer', 'controllerManager', 'scheduler']) if (cc?.[c]?.extraArgs) cc[c].extraArgs = argsMap(cc[c].extraArgs);
  if (cc?.etcd?.local?.extraArgs) cc.etcd.local.extraArgs = argsMap(cc.etcd.local.extraArgs);
}

/** One object in the previous render's v1beta1 form (other kinds unchanged). */
function down(o: KubeObject): KubeObject {
  if (!CAPI_KINDS.includes(o.kind)) return o;
  const x = structuredClone(o) as Obj;
  x.apiVersion = `${String(x.apiVersion).split('/')[0]}/v1beta1`;
  const s = x.spec;
  if (x.kind === 'Cluster') {
    s.controlPlaneRef = ref(s.controlPlaneRef);
    s.infrastructureRef = ref(s.infrastructureRef);
  } else if (x.kind === 'MachineDeployment') {
    s.template.spec.bootstrap.configRef = ref(s.template.spec.bootstrap.configRef);
    s.template.spec.infrastructureRef = ref(s.template.spec.infrastructureRef);
  } else if (x.kind === 'KubeadmControlPlane') {
    s.machineTemplate = { infrastructureRef: ref(s.machineTemplate.spec.infrastructureRef) };
    kubeadm(s.kubeadmConfigSpec);
  } else kubeadm(s.template.spec);
  return x as KubeObject;
}

/** The previous kaas's render of the same objects (v1beta1), with its content-hashed KubeadmConfigTemplate name. */
export function previousRender(objects: KubeObject[]): KubeObject[] {
  let out = objects.map(down);
  for (const t of out.filter((o) => o.kind === 'KubeadmConfigTemplate')) {
    const from = t.metadata.name;
    const to = `${from.replace(/-[0-9a-f]{8}$/, '')}-${contentHash(t)}`;
    out = out.map((o) => {
      if (o === t) return { ...o, metadata: { ...o.metadata, name: to } };
      if (o.kind !== 'MachineDeployment') return o;
      const c = structuredClone(o) as Obj;
      const r = c.spec.template.spec.bootstrap.configRef;
      if (r.name === from) r.name = to;
      return c as KubeObject;
    });
  }
  // The previous kaas applied the Cluster last, after the MachineDeployment (today's order is in lib/cluster/render.ts).
  return [...out.filter((o) => o.kind !== 'Cluster'), ...out.filter((o) => o.kind === 'Cluster')];
}
