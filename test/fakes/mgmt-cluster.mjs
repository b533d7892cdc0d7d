// A stateful stand-in for kubectl / clusterctl against a Cluster API management cluster (and the
// workload clusters it creates). State lives in a JSON file (KAAS_FAKE_STATE), so one state spans
// every process of a flow. It answers the argv forms kaas uses, validates objects against the
// bundled CRD schemas (the same ajv validator kaas uses, from dist/), enforces CAPO v0.14's
// update webhooks with their error texts, and plays the controllers' progress the waits need.
// See README.md ("Management-cluster mode"). Plain JavaScript, run as-is.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));
const RECORDED = path.join(here, 'recorded', 'capi-v1.12');

/** Resources kaas names, by every spelling it uses: [kind, group, plural, namespaced]. */
const KINDS = [
  ['Cluster', 'cluster.x-k8s.io', 'clusters', true],
  ['MachineDeployment', 'cluster.x-k8s.io', 'machinedeployments', true],
  ['Machine', 'cluster.x-k8s.io', 'machines', true],
  ['OpenStackCluster', 'infrastructure.cluster.x-k8s.io', 'openstackclusters', true],
  ['OpenStackMachineTemplate', 'infrastructure.cluster.x-k8s.io', 'openstackmachinetemplates', true],
  ['OpenStackMachine', 'infrastructure.cluster.x-k8s.io', 'openstackmachines', true],
  ['KubeadmControlPlane', 'controlplane.cluster.x-k8s.io', 'kubeadmcontrolplanes', true],
  ['KubeadmConfigTemplate', 'bootstrap.cluster.x-k8s.io', 'kubeadmconfigtemplates', true],
  ['CustomResourceDefinition', 'apiextensions.k8s.io', 'customresourcedefinitions', false],
  ['Namespace', '', 'namespaces', false],
  ['Secret', '', 'secrets', true],
  ['ConfigMap', '', 'configmaps', true],
  ['Service', '', 'services', true],
  ['PersistentVolumeClaim', '', 'persistentvolumeclaims', true],
  ['PersistentVolume', '', 'persistentvolumes', false],
  ['DaemonSet', 'apps', 'daemonsets', true],
  ['Deployment', 'apps', 'deployments', true],
];
const SHORT = { pvc: 'persistentvolumeclaims', svc: 'services', ns: 'namespaces', crd: 'customresourcedefinitions', pv: 'persistentvolumes' };

/** `plural[.version].group`, singular, kind or short name → the resource. */
function resource(spec) {
  const [first, ...rest] = spec.toLowerCase().split('.');
  const name = SHORT[first] ?? first;
  const group = rest.length && /^v\d/.test(rest[0]) ? rest.slice(1).join('.') : rest.join('.');
  const version = rest.length && /^v\d/.test(rest[0]) ? rest[0] : undefined;
  const k = KINDS.find(([kind, g, plural]) => (name === plural || name === kind.toLowerCase()) && (!rest.length || g === group));
  if (!k) return undefined;
  return { kind: k[0], group: k[1], plural: k[2], namespaced: k[3], version };
}
const resourceOfKind = (kind) => resource(kind);
const qualified = (r) => (r.group ? `${r.plural}.${r.group}` : r.plural);
/** Groups the API server serves without a CRD. */
const BUILT_IN = new Set(['', 'apps', 'apiextensions.k8s.io']);
const printed = (r, name) => `${r.kind.toLowerCase()}${r.group ? `.${r.group}` : ''}/${name}`;

const clone = (v) => structuredClone(v);
const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (isMap(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

/** Server-side apply for one field manager: drop what it owned and no longer sets, then merge (maps merge, lists replace). */
function dropOwned(live, prev, next) {
  for (const k of Object.keys(prev ?? {})) {
    if (!isMap(live)) return;
    if (!(k in (next ?? {}))) delete live[k];
    else if (isMap(prev[k]) && isMap(next[k])) dropOwned(live[k], prev[k], next[k]);
  }
}
function merge(live, next) {
  const out = isMap(live) ? { ...live } : {};
  for (const [k, v] of Object.entries(next)) out[k] = isMap(v) && isMap(out[k]) ? merge(out[k], v) : clone(v);
  return out;
}
const get = (o, p) => p.split('.').reduce((x, k) => (x && typeof x === 'object' ? x[k] : undefined), o);

// ---- CAPI v1.12: v1beta2 is stored and preferred, v1beta1 is served with a deprecation warning ----

/** The Cluster API kinds whose v1beta1 CAPI v1.12 converts to the stored v1beta2 (CAPO kinds stay v1beta1). */
const CAPI_V1BETA2 = new Set(['Cluster', 'MachineDeployment', 'Machine', 'KubeadmControlPlane', 'KubeadmConfigTemplate']);
/** The warning the API server adds for every v1beta1 request of those kinds (seen on the testbed). */
const deprecation = (group, kind) => `Warning: ${group}/v1beta1 ${kind} is deprecated; use ${group}/v1beta2 ${kind}\n`;

/** v1beta1 `{apiVersion, kind, name}` → v1beta2 `{apiGroup, kind, name}`. */
const ref = (r) => (r && r.apiVersion !== undefined ? { apiGroup: String(r.apiVersion).split('/').slice(0, -1).join('/'), kind: r.kind, name: r.name } : r);
/** A v1beta1 args map → the v1beta2 list, sorted by name as CAPI's ConvertToArgs does. */
const args = (m) => (isMap(m) ? Object.keys(m).sort().map((name) => ({ name, value: String(m[name]) })) : m);
function kubeadmSpec(k) {
  if (!isMap(k)) return;
  for (const c of ['initConfiguration', 'joinConfiguration']) if (k[c]?.nodeRegistration) k[c].nodeRegistration.kubeletExtraArgs = args(k[c].nodeRegistration.kubeletExtraArgs);
  const cc = k.clusterConfiguration;
  for (const c of ['apiServer', 'controllerManager', 'scheduler']) if (cc?.[c]) cc[c].extraArgs = args(cc[c].extraArgs);
  if (cc?.etcd?.local) cc.etcd.local.extraArgs = args(cc.etcd.local.extraArgs);
  for (const x of [k, cc, k.initConfiguration?.nodeRegistration, k.joinConfiguration?.nodeRegistration]) for (const [key, v] of Object.entries(x ?? {})) if (v === undefined) delete x[key];
}
/**
 * What CAPI v1.12's conversion stores for a v1beta1 object, for the fields kaas and the SCS template
 * set: references, extra args, the rollout strategy. Other renamed fields (drain and timeout durations,
 * …) are not modelled: an object using them is refused loudly, not stored in a shape CAPI never makes.
 */
function toV1beta2(doc) {
  const o = clone(doc);
  o.apiVersion = `${String(o.apiVersion).split('/')[0]}/v1beta2`;
  const sp = o.spec ?? {};
  const unmodelled = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout', 'progressDeadlineSeconds', 'revisionHistoryLimit', 'rolloutAfter', 'rolloutBefore', 'remediationStrategy']
    .filter((k) => k in sp || k in (sp.template?.spec ?? {}) || k in (sp.machineTemplate ?? {}));
  if (unmodelled.length) throw new Error(`fake: the v1beta1 → v1beta2 conversion of ${unmodelled.join(', ')} is not modelled`);
  if (o.kind === 'Cluster') {
    for (const k of ['controlPlaneRef', 'infrastructureRef']) if (sp[k]) sp[k] = ref(sp[k]);
  } else if (o.kind === 'MachineDeployment') {
    const t = sp.template?.spec;
    if (t?.bootstrap?.configRef) t.bootstrap.configRef = ref(t.bootstrap.configRef);
    if (t?.infrastructureRef) t.infrastructureRef = ref(t.infrastructureRef);
    if (sp.strategy) { sp.rollout = { ...(sp.rollout ?? {}), strategy: sp.strategy }; delete sp.strategy; }
  } else if (o.kind === 'KubeadmControlPlane') {
    const mt = sp.machineTemplate;
    if (mt?.infrastructureRef) { const { infrastructureRef, metadata, ...rest } = mt; sp.machineTemplate = { ...(metadata ? { metadata } : {}), spec: { ...rest, infrastructureRef: ref(infrastructureRef) } }; }
    if (sp.rolloutStrategy) { sp.rollout = { ...(sp.rollout ?? {}), strategy: sp.rolloutStrategy }; delete sp.rolloutStrategy; }
    kubeadmSpec(sp.kubeadmConfigSpec);
  } else if (o.kind === 'KubeadmConfigTemplate') {
    kubeadmSpec(sp.template?.spec);
  }
  return o;
}

// ---- CAPO v0.14 update webhooks (shared/reference/capo/capo-webhook-facts.md) ----

/** OpenStackCluster ValidateUpdate: the allow-list, then "cannot be modified". */
function openStackClusterUpdate(oldO, newO) {
  const o = clone(oldO.spec ?? {});
  const n = clone(newO.spec ?? {});
  const errs = [];
  delete o.identityRef; delete n.identityRef;
  delete o.bastion; delete n.bastion;
  if (!get(o, 'controlPlaneEndpoint.host')) { delete o.controlPlaneEndpoint; delete n.controlPlaneEndpoint; }
  for (const s of [o, n]) {
    for (const f of ['allNodesSecurityGroupRules', 'controlPlaneNodesSecurityGroupRules', 'workerNodesSecurityGroupRules', 'allowAllInClusterTraffic']) if (s.managedSecurityGroups) delete s.managedSecurityGroups[f];
    delete s.controlPlaneAvailabilityZones; delete s.controlPlaneOmitAvailabilityZone;
  }
  if (o.apiServerLoadBalancer && n.apiServerLoadBalancer && o.apiServerLoadBalancer.enabled && n.apiServerLoadBalancer.enabled) {
    for (const f of ['allowedCIDRs', 'monitor']) { delete o.apiServerLoadBalancer[f]; delete n.apiServerLoadBalancer[f]; }
  }
  // As CAPO v0.14.7 ValidateUpdate (checked against the testbed, test/testbed/fake-conformance.test.ts):
  // the subnet errors name spec.managedSubnets, and the spec comparison after them still runs, so a
  // changed CIDR also gives "spec: Forbidden: cannot be modified".
  const os = o.managedSubnets ?? [];
  const ns = n.managedSubnets ?? [];
  if (os.length !== ns.length) errs.push(['spec.managedSubnets', 'Forbidden: cannot add or remove subnets']);
  else {
    ns.forEach((s, i) => {
      if (s.cidr !== os[i].cidr) errs.push(['spec.managedSubnets', `Forbidden: cannot change subnet CIDR from existing value to ${s.cidr}`]);
    });
    if (!errs.length) for (const s of [...os, ...ns]) delete s.dnsNameservers;
  }
  if (!same(o, n)) errs.push(['spec', 'Forbidden: cannot be modified']);
  return errs.length ? { webhook: 'validation.openstackcluster.infrastructure.cluster.x-k8s.io', errs } : undefined;
}

/** The Go field order of CAPO v0.14's OpenStackMachineSpec: the webhook prints the spec as Go marshals it. */
const MACHINE_SPEC_ORDER = ['providerID', 'flavor', 'flavorID', 'image', 'sshKeyName', 'ports', 'securityGroups', 'trunk', 'tags', 'serverMetadata', 'configDrive', 'rootVolume', 'additionalBlockDevices', 'serverGroup', 'identityRef', 'floatingIPPoolRef', 'schedulerHintAdditionalProperties'];

function openStackMachineTemplateUpdate(oldO, newO) {
  const spec = get(newO, 'spec.template.spec') ?? {};
  if (same(get(oldO, 'spec.template.spec'), spec)) return undefined;
  // Go's json.Marshal with omitempty: empty lists and maps (kaas renders serverMetadata: []) are left out.
  const omitEmpty = (v) => (Array.isArray(v) ? v.map(omitEmpty) : isMap(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && !(Array.isArray(x) && !x.length) && !(isMap(x) && !Object.keys(x).length)).map(([k, x]) => [k, omitEmpty(x)])) : v);
  const ordered = omitEmpty(Object.fromEntries([...MACHINE_SPEC_ORDER.filter((k) => k in spec), ...Object.keys(spec).filter((k) => !MACHINE_SPEC_ORDER.includes(k))].map((k) => [k, spec[k]])));
  return {
    webhook: 'validation.openstackmachinetemplate.infrastructure.cluster.x-k8s.io',
    errs: [['spec.template.spec', `Invalid value: ${JSON.stringify(ordered)}: OpenStackMachineTemplate spec.template.spec field is immutable. Please create a new resource instead. Ref doc: https://cluster-api.sigs.k8s.io/tasks/change-machine-template.html`]],
  };
}

/** CAPI v1.12 KubeadmControlPlane webhook (create and update): an even replica count with stacked etcd. */
function kubeadmControlPlaneValidate(_oldO, newO) {
  const replicas = get(newO, 'spec.replicas');
  if (replicas === undefined || replicas % 2 === 1 || get(newO, 'spec.kubeadmConfigSpec.clusterConfiguration.etcd.external')) return undefined;
  return { webhook: 'validation.kubeadmcontrolplane.controlplane.cluster.x-k8s.io', errs: [['spec.replicas', 'Forbidden: cannot be an even number when etcd is stacked']] };
}

const WEBHOOKS = { OpenStackCluster: openStackClusterUpdate, OpenStackMachineTemplate: openStackMachineTemplateUpdate, KubeadmControlPlane: kubeadmControlPlaneValidate };
/** Webhooks that also validate a create. */
const CREATE_WEBHOOKS = { KubeadmControlPlane: kubeadmControlPlaneValidate };


/** An API error as kubectl prints it: `reason`, the apiserver message, and kubectl's detail form for one Invalid error. */
function invalid(r, name, hook) {
  const causes = hook.errs.map(([field, msg]) => `${field}: ${msg}`);
  const message = `${r.kind}.${r.group} "${name}" is invalid: ${causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`}`;
  // kubectl's detail form: one cause on the same line, several as a "* " list below it.
  const detail = `The ${r.kind} "${name}" is invalid: ${causes.length === 1 ? causes[0] : `\n${causes.map((c) => `* ${c}`).join('\n')}`}`;
  return { reason: 'Invalid', message: hook.webhook ? `admission webhook "${hook.webhook}" denied the request: ${message}` : message, detail };
}

// ---- state ----

export function run(tool, argv, statePath, stdin) {
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  // Written to a temporary file renamed over the state: a reader never sees half a file.
  const save = () => {
    const tmp = `${statePath}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state, null, 1));
    renameSync(tmp, statePath);
  };
  const out = { stdout: '', stderr: '', exitCode: 0 };
  const flag = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const kubeconfig = flag('--kubeconfig') ?? '';
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    if (['--kubeconfig', '--context', '--namespace', '-n', '--selector', '-l', '-o', '--kubeconfig-context', '--field-manager', '-f'].includes(argv[i])) { i++; continue; }
    if (argv[i].startsWith('-')) continue;
    args.push(argv[i]);
  }
  const isMgmt = tool === 'clusterctl' || kubeconfig === state.mgmt;
  const cluster = (state.clusters[isMgmt ? 'mgmt' : kubeconfig] ??= { objects: {}, applied: {} });
  const key = (r, ns, name) => `${r.kind}/${r.namespaced ? ns : ''}/${name}`;
  const namespace = flag('--namespace') ?? flag('-n') ?? 'default';
  const notFound = (r, name) => `Error from server (NotFound): ${qualified(r)} "${name}" not found\n`;
  /** A management cluster serves a custom resource (in that version) only with its CRD installed. */
  const serves = (r, version = r.version) => {
    if (!isMgmt || BUILT_IN.has(r.group)) return true;
    const crd = cluster.objects[`CustomResourceDefinition//${r.plural}.${r.group}`];
    return !!crd && crd.spec.versions.some((v) => v.served && (!version || v.name === version));
  };

  if (!isMgmt && !state.workloadReachable) {
    out.stderr = `E0101 00:00:00.000000 1 memcache.go:265] couldn't get current server API group list: Get "https://203.0.113.10:6443/api?timeout=32s": dial tcp 203.0.113.10:6443: connect: connection refused\nThe connection to the server 203.0.113.10:6443 was refused - did you specify the right host or port?\n`;
    out.exitCode = 1;
    return out;
  }

  // ---- controllers: each read of a control plane / MachineDeployment moves a pending rollout to done ----
  const semverMinor = (v) => /^v?(\d+)\.(\d+)/.exec(String(v ?? ''))?.slice(1, 3).join('.');
  /**
   * CAPI v1.12 MachineSet preflight checks (internal/controllers/machineset/machineset_preflight.go, on by
   * default): a MachineDeployment's new machines wait while the control plane is upgrading
   * (ControlPlaneIsStable) and while their version's minor differs from the KubeadmControlPlane's
   * spec.version (KubeadmVersionSkew). Returns the blocking message, or undefined.
   */
  function machineSetPreflight(md, cname) {
    const c = cluster.objects[`Cluster/${md.metadata.namespace}/${cname}`];
    const kcp = c && cluster.objects[`KubeadmControlPlane/${md.metadata.namespace}/${get(c, 'spec.controlPlaneRef.name')}`];
    if (!kcp) return undefined;
    if (kcp.status?.pending) return `Scaling up is blocked because:\n* Kubernetes control plane ${md.metadata.namespace}/${kcp.metadata.name} is upgrading ("ControlPlaneIsStable" preflight check failed)`;
    const ms = String(get(md, 'spec.template.spec.version') ?? '').replace(/^v/, '');
    const cp = String(get(kcp, 'spec.version') ?? '').replace(/^v/, '');
    if (semverMinor(ms) !== semverMinor(cp)) {
      return `Scaling up is blocked because:\n* MachineSet version (${ms}) and ControlPlane version (${cp}) do not conform to kubeadm version skew policy as kubeadm only supports joining with the same major+minor version as the control plane ("KubeadmVersionSkew" preflight check failed)`;
    }
    return undefined;
  }
  function reconcile(o) {
    const st = o.status ?? {};
    if (!st.pending || state.controllers === false) return;
    const replicas = Number(o.spec.replicas ?? 0);
    const infra = o.kind === 'KubeadmControlPlane' ? get(o, 'spec.machineTemplate.spec.infrastructureRef.name') : get(o, 'spec.template.spec.infrastructureRef.name');
    const cname = o.metadata.labels?.['cluster.x-k8s.io/cluster-name'] ?? get(o, 'spec.clusterName');
    if (o.kind === 'MachineDeployment') {
      const blocked = machineSetPreflight(o, cname);
      if (blocked) {
        // The MachineSet's ScalingUp condition carries the preflight message; the MachineDeployment's says it scales.
        o.status = { ...st, conditions: rolloutConditions(o, { available: false, upToDate: false, scalingUp: `Scaling up from ${Number(st.replicas ?? 0)} to ${replicas} replicas` }), blockedBy: blocked };
        return;
      }
    }
    for (const k of Object.keys(cluster.objects)) {
      const x = cluster.objects[k];
      if ((x.kind === 'Machine' || x.kind === 'OpenStackMachine') && x.metadata.labels?.owner === o.metadata.name) delete cluster.objects[k];
    }
    // As real CAPI: a Machine refers to the OpenStackMachine cloned from the template (annotated with
    // the template it was cloned from), never to the template itself.
    for (let i = 0; i < replicas; i++) {
      const name = `${o.metadata.name}-${o.metadata.generation}-${i}`;
      const labels = { 'cluster.x-k8s.io/cluster-name': cname, owner: o.metadata.name };
      const osm = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachine', metadata: { name, namespace: o.metadata.namespace, labels, annotations: { 'cluster.x-k8s.io/cloned-from-name': infra, 'cluster.x-k8s.io/cloned-from-groupkind': 'OpenStackMachineTemplate.infrastructure.cluster.x-k8s.io' } }, spec: clone(get(cluster.objects[`OpenStackMachineTemplate/${o.metadata.namespace}/${infra}`] ?? {}, 'spec.template.spec') ?? {}) };
      const m = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name, namespace: o.metadata.namespace, labels }, spec: { clusterName: cname, version: o.kind === 'KubeadmControlPlane' ? o.spec.version : get(o, 'spec.template.spec.version'), infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'OpenStackMachine', name } } };
      cluster.objects[key(resourceOfKind('OpenStackMachine'), o.metadata.namespace, name)] = osm;
      cluster.objects[key(resourceOfKind('Machine'), o.metadata.namespace, name)] = m;
    }
    // The v1beta2 status, with the v1beta1 counts CAPI v1.12 keeps under status.deprecated.v1beta1.
    o.status = {
      observedGeneration: o.metadata.generation, replicas, readyReplicas: replicas, availableReplicas: replicas, upToDateReplicas: replicas,
      ...(o.kind === 'KubeadmControlPlane' ? { initialization: { controlPlaneInitialized: true }, version: o.spec.version } : {}),
      conditions: rolloutConditions(o, { available: true, upToDate: true }),
      deprecated: { v1beta1: { readyReplicas: replicas, updatedReplicas: replicas, unavailableReplicas: 0 } },
    };
    if (o.kind === 'KubeadmControlPlane') {
      // CAPI copies the API load balancer's address into Cluster.spec.controlPlaneEndpoint: as floating
      // IPs, the first Cluster gets the recorded kubeconfig's 203.0.113.50 (or 203.0.113.<firstEndpoint>), each further one the next.
      const c = cluster.objects[`Cluster/${o.metadata.namespace}/${cname}`];
      let host = get(c ?? {}, 'spec.controlPlaneEndpoint.host');
      if (c && !host) {
        const taken = new Set(Object.values(cluster.objects).filter((x) => x.kind === 'Cluster').map((x) => get(x, 'spec.controlPlaneEndpoint.host')).filter(Boolean));
        for (let i = state.firstEndpoint ?? 50; !host; i++) if (!taken.has(`203.0.113.${i}`)) host = `203.0.113.${i}`;
        c.spec = { ...c.spec, controlPlaneEndpoint: { host, port: 6443 } };
      }
      const text = readFileSync(path.join(RECORDED, 'clusterctl-get-kubeconfig.yaml'), 'utf8').replace('https://203.0.113.50:6443', `https://${host ?? '203.0.113.50'}:6443`);
      const s = { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${cname}-kubeconfig`, namespace: o.metadata.namespace, labels: { 'cluster.x-k8s.io/cluster-name': cname } }, type: 'cluster.x-k8s.io/secret', data: { value: Buffer.from(text).toString('base64') } };
      cluster.objects[key(resourceOfKind('Secret'), o.metadata.namespace, s.metadata.name)] = s;
    }
  }
  /**
   * Deleting Clusters, one controller pass per management-cluster call:
   * 1. Cluster API deletes the control plane, MachineDeployments and Machines (servers go with them);
   * 2. CAPO's OpenStackCluster reconcileDelete (CAPO v0.14.7 controllers/openstackcluster_controller.go
   *    :202-214: API LB, router interface, ports named after the cluster, network) fails while a port it
   *    did not create is in the cluster network: Neutron refuses to remove the router interface
   *    (a floating IP needs it) and the network (ports in use). Those are the VIP ports of OCCM's load
   *    balancers in the fake cloud (state.cloudFile, loadBalancers[].vipNetwork =
   *    k8s-clusterapi-cluster-<namespace>-<name>, in the cloud's projectId). Until they are gone the finalizer stays;
   * 3. then the OpenStackCluster, the kubeconfig Secret and the Cluster go.
   */
  function deletionControllers() {
    let changed = false;
    for (const c of Object.values(cluster.objects).filter((x) => x.kind === 'Cluster' && x.metadata.deletionTimestamp)) {
      const ns = c.metadata.namespace;
      const name = c.metadata.name;
      const owned = (kinds) => Object.entries(cluster.objects).filter(([, x]) => x.metadata.namespace === ns && x.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === name && kinds.includes(x.kind));
      const machines = owned(['Machine', 'MachineDeployment', 'KubeadmControlPlane']);
      changed = true;
      if (machines.length) {
        for (const [k] of machines) { delete cluster.objects[k]; delete cluster.applied[k]; }
        continue;
      }
      const network = `k8s-clusterapi-cluster-${ns}-${name}`;
      const cloud = state.cloudFile ? JSON.parse(readFileSync(state.cloudFile, 'utf8')) : { loadBalancers: [] };
      // The cluster's network is the one in the cluster's project (another project may use the same name).
      const ports = (cloud.loadBalancers ?? []).filter((l) => l.vipNetwork === network && (!l.projectId || !cloud.projectId || l.projectId === cloud.projectId)).map((l) => l.vipPortId);
      if (ports.length) {
        const message = `failed to delete router: Unable to complete operation on subnet: One or more ports have an IP allocation from this subnet (ports ${ports.join(', ')} in network ${network})`;
        c.status = { ...(c.status ?? {}), phase: 'Deleting', conditions: [{ type: 'InfrastructureReady', status: 'False', reason: 'Deleting', message }] };
        continue;
      }
      for (const [k, x] of Object.entries(cluster.objects)) {
        if (x.metadata.namespace === ns && x.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === name && x.kind !== 'Secret' && !x.kind.endsWith('Template')) { delete cluster.objects[k]; delete cluster.applied[k]; }
      }
      delete cluster.objects[`Secret/${ns}/${name}-kubeconfig`];
      delete cluster.objects[`Cluster/${ns}/${name}`];
      delete cluster.applied[`Cluster/${ns}/${name}`];
    }
    if (changed) save();
  }
  /**
   * The v1beta2 conditions of a KubeadmControlPlane / MachineDeployment as CAPI v1.12 sets them (types and
   * reasons as on the testbed): Available, MachinesUpToDate and the negative RollingOut/ScalingUp/… ones.
   */
  function rolloutConditions(o, { available, upToDate, scalingUp, notInitialized }) {
    const kcp = o.kind === 'KubeadmControlPlane';
    const c = (type, status, reason, message = '') => ({ type, status, reason, message, observedGeneration: o.metadata.generation });
    return [
      available ? c('Available', 'True', 'Available') : c('Available', 'False', 'NotAvailable', notInitialized ? 'Control plane not yet initialized' : `0 available replicas, at least ${Number(o.spec.replicas ?? 0)} required`),
      ...(kcp ? [notInitialized ? c('Initialized', 'False', 'NotInitialized') : c('Initialized', 'True', 'Initialized')] : []),
      upToDate ? c('RollingOut', 'False', 'NotRollingOut') : c('RollingOut', 'True', 'RollingOut', 'Rolling out 1 not up-to-date replicas'),
      c('Remediating', 'False', 'NotRemediating'),
      c('ScalingDown', 'False', 'NotScalingDown'),
      scalingUp ? c('ScalingUp', 'True', 'ScalingUp', scalingUp) : c('ScalingUp', 'False', 'NotScalingUp'),
      upToDate ? c('MachinesUpToDate', 'True', 'UpToDate') : c('MachinesUpToDate', 'False', 'NotUpToDate'),
      c('Paused', 'False', 'NotPaused'),
      c('Deleting', 'False', 'NotDeleting'),
    ];
  }
  const startRollout = (o, old) => {
    const prev = old?.status ?? {};
    const initialized = prev.initialization?.controlPlaneInitialized === true;
    const replicas = Number(o.spec.replicas ?? 0);
    o.status = {
      ...prev, observedGeneration: (o.metadata.generation ?? 1) - 1, pending: true, upToDateReplicas: 0,
      ...(o.kind === 'KubeadmControlPlane' ? { initialization: { controlPlaneInitialized: initialized } } : {}),
      conditions: rolloutConditions(o, { available: false, upToDate: false, notInitialized: o.kind === 'KubeadmControlPlane' && !initialized, scalingUp: Number(prev.replicas ?? 0) < replicas ? `Scaling up from ${Number(prev.replicas ?? 0)} to ${replicas} replicas` : undefined }),
    };
  };

  /**
   * `kubectl rollout status deployment|daemonset/NAME` with kubectl's texts (rollout_status.go): done
   * once the controller observed the current generation and every replica/pod is updated and available.
   * Workloads have no controllers of their own here: with them on, a call watches the rollout to its end;
   * off, it prints where it waits and times out as kubectl does.
   */
  function rolloutStatus(spec) {
    const [res, name] = spec.split('/');
    const r = resource(res);
    if (!r) return { stdout: '', stderr: `error: the server doesn't have a resource type "${res}"\n`, exitCode: 1 };
    if (r.kind !== 'Deployment' && r.kind !== 'DaemonSet') return { stdout: '', stderr: `error: no status viewer has been implemented for ${r.kind}${r.group ? `.${r.group}` : ''}\n`, exitCode: 1 };
    const o = cluster.objects[key(r, namespace, name)];
    if (!o) return { stdout: '', stderr: notFound(r, name), exitCode: 1 };
    const ds = r.kind === 'DaemonSet';
    if (ds && (o.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return { stdout: '', stderr: 'error: rollout status is only available for RollingUpdate strategy type\n', exitCode: 1 };
    const generation = o.metadata.generation ?? 1;
    const want = ds ? Number(state.workloadNodes ?? 3) : Number(o.spec?.replicas ?? 1);
    const st = o.status ?? {};
    const rolled = (st.observedGeneration ?? 0) >= generation && (ds ? st.updatedNumberScheduled >= st.desiredNumberScheduled && st.numberAvailable >= st.desiredNumberScheduled : st.updatedReplicas >= want && st.availableReplicas >= st.updatedReplicas);
    const label = ds ? 'daemon set' : 'deployment';
    const done = { stdout: `${label} "${name}" successfully rolled out\n`, stderr: '', exitCode: 0 };
    if (rolled) return done;
    const waiting = (st.observedGeneration ?? 0) < generation
      ? `Waiting for ${label} spec update to be observed...\n`
      : `Waiting for ${label} "${name}" rollout to finish: 0 of ${want} updated ${ds ? 'pods' : 'replicas'} are available...\n`;
    if ((isMgmt ? state.controllers : state.workloadControllers) === false) return { stdout: waiting, stderr: 'error: timed out waiting for the condition\n', exitCode: 1 };
    o.status = ds
      ? { observedGeneration: generation, desiredNumberScheduled: want, currentNumberScheduled: want, updatedNumberScheduled: want, numberReady: want, numberAvailable: want }
      : { observedGeneration: generation, replicas: want, updatedReplicas: want, readyReplicas: want, availableReplicas: want, conditions: [{ type: 'Available', status: 'True' }] };
    save();
    return { ...done, stdout: waiting + done.stdout };
  }

  if (isMgmt && state.controllers !== false) deletionControllers();

  const verb = args[0];
  if (tool === 'clusterctl') {
    if (args[0] === 'get' && args[1] === 'kubeconfig') {
      const s = cluster.objects[`Secret/${namespace}/${args[2]}-kubeconfig`];
      if (!s) return { stdout: '', stderr: `Error: "${args[2]}-kubeconfig" not found in namespace "${namespace}": secrets "${args[2]}-kubeconfig" not found\n`, exitCode: 1 };
      return { stdout: Buffer.from(s.data.value, 'base64').toString('utf8'), stderr: '', exitCode: 0 };
    }
    return { stdout: '', stderr: `fake clusterctl: ${argv.join(' ')} is not modelled\n`, exitCode: 97 };
  }
  if (tool === 'cilium' || tool === 'helm') {
    if (tool === 'cilium') cluster.objects['DaemonSet/kube-system/cilium'] = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'cilium', namespace: 'kube-system' } };
    save();
    return { stdout: `🔮 Auto-detected Kubernetes kind: kubeadm\n`, stderr: '', exitCode: 0 };
  }

  if (verb === 'api-versions') {
    if (!isMgmt) out.stdout = 'v1\napps/v1\n';
    else if (state.apiVersionsFile) out.stdout = readFileSync(path.join(RECORDED, state.apiVersionsFile), 'utf8');
    else {
      // The built-in groups of a bare cluster plus every version a CRD serves, sorted as kubectl prints them.
      const gvs = new Set(readFileSync(path.join(RECORDED, 'api-versions-no-capi.txt'), 'utf8').split('\n').filter(Boolean));
      for (const o of Object.values(cluster.objects)) if (o.kind === 'CustomResourceDefinition') for (const v of o.spec.versions) if (v.served) gvs.add(`${o.spec.group}/${v.name}`);
      out.stdout = [...gvs].sort().map((l) => `${l}\n`).join('');
    }
    return out;
  }

  /** A named read: a control plane or MachineDeployment moves on (the controllers reconcile), its fake-only status fields hidden. */
  const readNamed = (o) => {
    if (o.kind !== 'KubeadmControlPlane' && o.kind !== 'MachineDeployment') return o;
    const shown = clone(o);
    reconcile(o);
    save();
    delete shown.status.pending;
    delete shown.status.blockedBy;
    return shown;
  };
  /**
   * Named reads (`get <kind> <name>…` and `get <kind>/<name>…`): one object prints the object, several a
   * List; a missing one is an error unless --ignore-not-found leaves it out (nothing at all when none exists).
   */
  const showNamed = (refs) => {
    const found = [];
    for (const [r, name] of refs) {
      const o = cluster.objects[key(r, namespace, name)];
      if (!o) {
        if (argv.includes('--ignore-not-found')) continue;
        return { stdout: '', stderr: notFound(r, name), exitCode: 1 };
      }
      found.push(readNamed(o));
    }
    if (!found.length) out.stdout = '';
    else if (refs.length === 1) out.stdout = JSON.stringify(found[0], null, 4);
    else out.stdout = JSON.stringify({ apiVersion: 'v1', items: found, kind: 'List', metadata: { resourceVersion: '' } }, null, 4);
    return out;
  };
  if (verb === 'get' && args.length > 1 && args.slice(1).every((a) => a.includes('/'))) {
    // `get <kind>/<name>…` (kinds mixed, e.g. a KCP and a MachineDeployment, or Secrets and their
    // Namespace): as the form below, a missing one is an error unless --ignore-not-found leaves it out.
    const refs = [];
    for (const ref of args.slice(1)) {
      const [res, name] = ref.split('/');
      const r = resource(res);
      if (!r || !serves(r)) return { stdout: '', stderr: `error: the server doesn't have a resource type "${res}"\n`, exitCode: 1 };
      refs.push([r, name]);
    }
    return showNamed(refs);
  }

  if (verb === 'get') {
    const names = args[1].split(',').map((s) => [s, resource(s)]);
    const unknown = names.find(([, r]) => !r || !serves(r));
    if (unknown) return { stdout: '', stderr: `error: the server doesn't have a resource type "${unknown[0]}"\n`, exitCode: 1 };
    const v1beta1 = names.find(([, r]) => r.version === 'v1beta1' && CAPI_V1BETA2.has(r.kind));
    if (isMgmt && v1beta1) {
      // CAPI v1.12 would answer in v1beta1 (converted, with a warning); kaas reads v1beta2, so a v1beta1 read is a regression.
      return { stdout: '', stderr: `${deprecation(v1beta1[1].group, v1beta1[1].kind)}fake kubectl: a v1beta1 read of ${v1beta1[1].kind} is not modelled (kaas reads v1beta2)\n`, exitCode: 97 };
    }
    const wanted = args.slice(2);
    if (wanted.length) {
      // `get <kind> <name>…`: one name prints the object, several a List; --ignore-not-found leaves a
      // missing one out (and prints nothing at all when none exists), as kubectl does.
      return showNamed(wanted.map((name) => [names[0][1], name]));
    }
    const all = argv.includes('--all-namespaces') || argv.includes('-A');
    const sel = (flag('--selector') ?? flag('-l') ?? '').split(',').filter(Boolean).map((s) => s.split('='));
    const items = Object.values(cluster.objects).filter((o) => {
      const r = resourceOfKind(o.kind) ?? { namespaced: o.metadata.namespace !== undefined };
      if (!names.some(([, x]) => x.kind === o.kind)) return false;
      if (r.namespaced && !all && o.metadata.namespace !== namespace) return false;
      return sel.every(([k, v]) => o.metadata.labels?.[k] === v);
    });
    // A listed control plane or MachineDeployment is read as a named one is (the controllers move on,
    // the fake's own status fields are not shown).
    const shownItems = items.map((o) => {
      if (o.kind !== 'KubeadmControlPlane' && o.kind !== 'MachineDeployment') return o;
      const shown = clone(o);
      reconcile(o);
      delete shown.status?.pending;
      delete shown.status?.blockedBy;
      return shown;
    });
    if (shownItems.some((o, i) => o !== items[i])) save();
    out.stdout = JSON.stringify({ apiVersion: 'v1', items: shownItems, kind: 'List', metadata: { resourceVersion: '' } }, null, 4);
    return out;
  }

  if (verb === 'create' && args[1] === 'namespace') {
    const r = resource('namespaces');
    if (cluster.objects[key(r, '', args[2])]) return { stdout: '', stderr: `Error from server (AlreadyExists): namespaces "${args[2]}" already exists\n`, exitCode: 1 };
    cluster.objects[key(r, '', args[2])] = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: args[2] } };
    save();
    return { stdout: `namespace/${args[2]} created\n`, stderr: '', exitCode: 0 };
  }

  if (verb === 'delete') {
    const lines = [];
    // `delete <res>/<name>…`, or kubectl's other form `delete <res> <name>…` (removeIngress uses it).
    const specs = args[1] && !args[1].includes('/') ? args.slice(2).map((n) => `${args[1]}/${n}`) : args.slice(1);
    for (const spec of specs) {
      const [res, name] = spec.split('/');
      const r = resource(res);
      const k = key(r, namespace, name);
      const o = cluster.objects[k];
      if (!o) {
        if (!argv.includes('--ignore-not-found')) return { stdout: lines.join(''), stderr: notFound(r, name), exitCode: 1 };
        continue;
      }
      if (o.kind === 'Cluster' && isMgmt) {
        // Cluster API's finalizer: the API server only marks the Cluster; the controllers delete
        // what it owns, then drop the finalizer (deletionControllers, on the following calls).
        o.metadata.deletionTimestamp ??= new Date(Date.UTC(2026, 10, 24)).toISOString();
        o.metadata.finalizers = ['cluster.cluster.x-k8s.io'];
        o.status = { ...(o.status ?? {}), phase: 'Deleting' };
      } else {
        delete cluster.objects[k];
        delete cluster.applied[k];
      }
      lines.push(`${r.kind.toLowerCase()}${r.group ? `.${r.group}` : ''} "${name}" deleted\n`);
    }
    save();
    return { stdout: lines.join(''), stderr: '', exitCode: 0 };
  }

  if (verb === 'apply' || verb === 'diff') {
    const input = stdin;
    const docs = YAML.parseAllDocuments(input).map((d) => d.toJS()).filter(Boolean);
    const dryRun = verb === 'diff' || argv.some((a) => a.startsWith('--dry-run'));
    const errors = [];
    const warnings = [];
    const lines = [];
    const diffs = [];
    const staged = { ...cluster.objects };
    const stagedApplied = { ...cluster.applied };
    for (const doc of docs) {
      // A workload cluster takes any kind the add-ons bring (RBAC, CSI driver, …).
      const r = resourceOfKind(doc.kind) ?? (isMgmt ? undefined : { kind: doc.kind, group: String(doc.apiVersion).split('/').slice(0, -1).join(''), plural: `${doc.kind.toLowerCase()}s`, namespaced: doc.metadata.namespace !== undefined });
      if (!r) { errors.push({ reason: 'NotFound', message: `the server could not find the requested resource (kind ${doc.kind})` }); continue; }
      const version = String(doc.apiVersion).split('/').pop();
      if (!serves(r, version)) {
        // kubectl's REST mapping fails before anything reaches the server.
        errors.push({ detail: `error: resource mapping not found for name: "${doc.metadata.name}" namespace: "${doc.metadata.namespace ?? ''}" from "STDIN": no matches for kind "${doc.kind}" in version "${doc.apiVersion}"\nensure CRDs are installed first` });
        continue;
      }
      const ns = r.namespaced ? doc.metadata.namespace ?? namespace : '';
      if (r.namespaced && isMgmt && !staged[`Namespace//${ns}`] && ns !== 'default') {
        errors.push({ reason: 'NotFound', message: `namespaces "${ns}" not found` });
        continue;
      }
      if (isMgmt && state.validate !== false) {
        const problems = validate(doc);
        if (problems.length) { errors.push(invalid(r, doc.metadata.name, { errs: problems.map((p) => p.split(': ').length > 1 ? [p.split(': ')[0], p.split(': ').slice(1).join(': ')] : [p, 'Invalid value']) })); continue; }
      }
      const k = key(r, ns, doc.metadata.name);
      const old = staged[k];
      let applied = clone(doc);
      if (isMgmt && version === 'v1beta1' && CAPI_V1BETA2.has(doc.kind)) {
        warnings.push(deprecation(r.group, r.kind));
        try {
          applied = toV1beta2(applied);
        } catch (e) {
          return { stdout: '', stderr: `${e.message}\n`, exitCode: 97 };
        }
      }
      if (applied.kind === 'Secret' && applied.stringData) {
        applied.data = Object.fromEntries(Object.entries(applied.stringData).map(([x, v]) => [x, Buffer.from(String(v)).toString('base64')]));
        delete applied.stringData;
      }
      let next;
      if (old) {
        const base = clone(old);
        dropOwned(base, stagedApplied[k], applied);
        next = merge(base, applied);
        const hook = isMgmt && WEBHOOKS[doc.kind]?.(old, next);
        if (hook) { errors.push(invalid(r, doc.metadata.name, hook)); continue; }
      } else {
        next = { ...applied, metadata: { ...applied.metadata, namespace: r.namespaced ? ns : undefined, generation: 1 } };
        const hook = isMgmt && CREATE_WEBHOOKS[doc.kind]?.(undefined, next);
        if (hook) { errors.push(invalid(r, doc.metadata.name, hook)); continue; }
      }
      const changed = !old || !same({ ...old, status: undefined, metadata: { ...old.metadata, generation: undefined } }, { ...next, status: undefined, metadata: { ...next.metadata, generation: undefined } });
      if (changed && old && !same(old.spec, next.spec)) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
      if (changed && (doc.kind === 'KubeadmControlPlane' || doc.kind === 'MachineDeployment') && (!old || !same(old.spec, next.spec))) startRollout(next, old);
      if (changed) diffs.push([r, ns, doc.metadata.name, old, next]);
      staged[k] = next;
      stagedApplied[k] = applied;
      // kubectl marks a dry run's lines (seen on the testbed: "… serverside-applied (server dry run)").
      lines.push(`${printed(r, doc.metadata.name)} serverside-applied${argv.includes('--dry-run=server') ? ' (server dry run)' : ''}\n`);
    }
    if (verb === 'diff') {
      if (errors.length) return { stdout: '', stderr: warnings.join('') + errors.map((e) => (e.reason ? `Error from server (${e.reason}): ${e.message}\n` : `${e.detail}\n`)).join(''), exitCode: 1 + 1 };
      const text = diffs.map(([r, ns, name, old, next]) => {
        const file = `${r.group ? `${r.group}.` : ''}v1.${r.kind}.${ns}.${name}`;
        const a = old ? YAML.stringify({ ...old, status: undefined }).split('\n') : [];
        const b = YAML.stringify({ ...next, status: undefined }).split('\n');
        return [`diff -u -N /tmp/LIVE-1/${file} /tmp/MERGED-1/${file}`, ...a.filter((l) => !b.includes(l)).map((l) => `-${l}`), ...b.filter((l) => !a.includes(l)).map((l) => `+${l}`)].join('\n');
      }).join('\n');
      return { stdout: text ? `${text}\n` : '', stderr: warnings.join(''), exitCode: diffs.length ? 1 : 0 };
    }
    if (!dryRun) {
      cluster.objects = staged;
      cluster.applied = stagedApplied;
      save();
    }
    // kubectl applies object after object: the ones before and after a refused one are applied.
    out.stdout = lines.join('');
    if (errors.length === 1 && errors[0].detail) out.stderr = `${warnings.join('')}${errors[0].detail}\n`;
    else out.stderr = warnings.join('') + errors.map((e) => (e.reason ? `Error from server (${e.reason}): ${e.message}\n` : `${e.detail}\n`)).join('');
    out.exitCode = errors.length ? 1 : 0;
    return out;
  }
  if (verb === 'rollout' && args[1] === 'status') return rolloutStatus(args[2]);
  return { stdout: '', stderr: `fake kubectl: ${argv.join(' ')} is not modelled\n`, exitCode: 97 };
}

let validateFn;
/** CRD schema problems of one object, as `path: message` (kaas's own validator, compiled in dist/). */
function validate(doc) {
  try {
    validateFn(doc);
    return [];
  } catch (e) {
    return (e.problems ?? [String(e.message)]).map((p) => p.replace(/^[^:]+: /, '').replace(/^\//, '').replace(/\//g, '.'));
  }
}

/** Loads the validator (async import) before run(). */
export async function prepare() {
  const m = await import(new URL('../../dist/lib/cluster/crd-validate.js', import.meta.url).href);
  validateFn = (doc) => m.validateAgainstCrds([doc]);
}
