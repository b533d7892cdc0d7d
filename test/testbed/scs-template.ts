/**
 * A cluster made from the verbatim SCS cluster-template (a ClusterClass, `../shared/reference/capo/scs/
 * cluster-template.yaml`), the way the SCS scripts made it: a clusterctl.yaml with the SCS variables,
 * `clusterctl generate cluster <name> --from cluster-template.yaml`, `kubectl apply` (create_cluster.sh).
 *
 * One step stands between the SCS scripts' era and CAPO v0.14: the template writes CAPO's
 * infrastructure objects in v1alpha7, which CAPO has not served since v0.12. A cluster the scripts
 * made was stored in v1beta1 (CAPO v0.10+ stores v1beta1; its conversion webhook translated) and its
 * ClusterClass's references were moved to v1beta1 by Cluster API's ClusterClass controller
 * (RefVersionsUpToDate) while CAPO v0.10/v0.11 served both. `asUpgraded` does exactly that to the
 * generated objects, field for field as CAPO's v1alpha7 → v1beta1 conversion (capo-facts.md): what is
 * on a management cluster that went through those upgrades. Everything else stays as generated.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REFERENCE_DIR } from '../support/reference.js';
import { parseAllDocuments, stringify } from 'yaml';

type Obj = Record<string, any>;

/** The verbatim SCS template in ../shared. */
export const SCS_TEMPLATE = path.join(REFERENCE_DIR, 'capo', 'scs', 'cluster-template.yaml');

const V1ALPHA7 = 'infrastructure.cluster.x-k8s.io/v1alpha7';
const V1BETA1 = 'infrastructure.cluster.x-k8s.io/v1beta1';

/** CAPO's v1alpha7 → v1beta1 conversion of an OpenStackClusterTemplate / OpenStackMachineTemplate spec. */
function convertSpec(kind: string, s: Obj): Obj {
  const out: Obj = { ...s };
  delete out.cloudName;
  out.identityRef = { name: s.identityRef?.name, cloudName: s.cloudName };
  if (kind === 'OpenStackClusterTemplate') {
    delete out.managedSecurityGroups; delete out.nodeCidr; delete out.dnsNameservers; delete out.externalNetworkId;
    if (s.managedSecurityGroups === true) out.managedSecurityGroups = {};
    if (s.nodeCidr) out.managedSubnets = [{ cidr: s.nodeCidr, dnsNameservers: s.dnsNameservers ?? [] }];
    if (s.externalNetworkId) out.externalNetwork = { id: s.externalNetworkId };
  } else {
    delete out.serverGroupID; delete out.serverMetadata;
    // create_cluster.sh removes the `serverGroupID: nonono` placeholder when anti-affinity is off.
    if (s.serverGroupID && s.serverGroupID !== 'nonono') out.serverGroup = { id: s.serverGroupID };
    if (s.serverMetadata && typeof s.serverMetadata === 'object') out.serverMetadata = Object.entries(s.serverMetadata).map(([key, value]) => ({ key, value: String(value) }));
    if (typeof s.image === 'string') out.image = { filter: { name: s.image } };
    if (Array.isArray(s.securityGroups)) out.securityGroups = s.securityGroups.map((g: Obj) => (g.name ? { filter: { name: g.name } } : g));
  }
  return out;
}

/**
 * The generated objects as a management cluster holds them after CAPO's upgrades (see the module
 * comment). `classRefs: 'as generated'` leaves the ClusterClass's references at v1alpha7: the state of
 * a class Cluster API did not get to move before CAPO stopped serving v1alpha7 (it cannot reconcile it).
 */
export function asUpgraded(generated: string, o: { classRefs?: 'v1beta1' | 'as generated' } = {}): Obj[] {
  return parseAllDocuments(generated).map((d) => d.toJS() as Obj).filter(Boolean).map((x) => {
    if (x.apiVersion === V1ALPHA7) return { ...x, apiVersion: V1BETA1, spec: { template: { ...x.spec.template, spec: convertSpec(x.kind, x.spec.template.spec) } } };
    if (x.kind === 'ClusterClass' && o.classRefs !== 'as generated') return JSON.parse(JSON.stringify(x).split(V1ALPHA7).join(V1BETA1)) as Obj;
    return x;
  });
}

/** The SCS clusterctl.yaml for a testbed cluster (the keys SCS's clusterctl.yaml.tmpl has, testbed values). */
export function scsClusterctlYaml(v: { cluster: string; prefix: string; externalNetworkId: string; cloud: string; flavor: string; image: string; k8s: string; cloudsYamlB64: string }): string {
  const vars: Record<string, string> = {
    CLUSTER_NAME: v.cluster,
    PREFIX: v.prefix,
    KUBERNETES_VERSION: v.k8s,
    OPENSTACK_IMAGE_NAME: v.image,
    OPENSTACK_CONTROL_PLANE_MACHINE_METADATA: '',
    OPENSTACK_NODE_MACHINE_METADATA: '',
    OPENSTACK_CONTROL_PLANE_MACHINE_FLAVOR: v.flavor,
    CONTROL_PLANE_MACHINE_COUNT: '1',
    CONTROL_PLANE_MACHINE_GEN: 'genc01',
    OPENSTACK_NODE_MACHINE_FLAVOR: v.flavor,
    WORKER_MACHINE_COUNT: '1',
    WORKER_MACHINE_GEN: 'genw01',
    OPENSTACK_FAILURE_DOMAIN: 'nova',
    ETCD_UNSAFE_FS: 'false',
    PROXY_CMD: '',
    NODE_CIDR: '10.8.0.0/20',
    SERVICE_CIDR: '10.96.0.0/12',
    POD_CIDR: '192.168.0.0/16',
    OPENSTACK_EXTERNAL_NETWORK_ID: v.externalNetworkId,
    OPENSTACK_DNS_NAMESERVERS: '[ 172.24.4.1, ]',
    OPENSTACK_CLUSTER_GEN: 'geno01',
    OPENSTACK_SSH_KEY_NAME: `${v.prefix}-keypair`,
    OPENSTACK_SRVGRP_CONTROLLER: 'nonono',
    OPENSTACK_SRVGRP_WORKER: 'nonono',
    OPENSTACK_CLOUD: v.cloud,
    OPENSTACK_CLOUD_YAML_B64: v.cloudsYamlB64,
    OPENSTACK_CLOUD_CACERT_B64: Buffer.from('\n').toString('base64'),
  };
  return stringify(vars);
}

/** One clouds.yaml entry, base64 (what SCS put into OPENSTACK_CLOUD_YAML_B64). */
export function cloudsYamlB64(cloudsFile: string, cloud: string): string {
  const all = parseAllDocuments(fs.readFileSync(cloudsFile, 'utf8'))[0].toJS() as Obj;
  return Buffer.from(stringify({ clouds: { [cloud]: all.clouds[cloud] } })).toString('base64');
}

/** Objects back to a manifest. */
export const manifest = (objects: Obj[]): string => objects.map((o) => `---\n${stringify(o)}`).join('');
