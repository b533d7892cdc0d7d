import path from 'node:path';
import { UsageError } from '../../errors.js';
import { writeOutputDir } from '../../fs/output-dir.js';
import type { ProcessRunner } from '../../exec/runner.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import { BUNDLED_GATEWAY_VERSIONS, findBundledGateway } from '../../plan/gateway-versions.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE } from '../../plan/gateway.js';
import { stringifyDocuments, type KubeObject } from '../../render/documents.js';
import { loadSettings } from '../../settings/load.js';
import type { ApplyIngressOptions } from '../../ingress/apply-ingress.js';
import { edgeKubeTarget, ingressKubeTarget } from '../../ingress/kubeconfig.js';
import { validateGatewayObjects } from '../schema.js';
import { convertIngresses, type Conversion, type UnresolvedPort } from './convert.js';
import { mergeIndexes, serviceIndex } from './ports.js';
import { readManifestFiles, servicesIn, unpack } from './read.js';
import { clientIpsFor } from './client-ips.js';
import { reportUnprotected, requireHtpasswdSecrets, secretInstructions, unprotectedError, type UnprotectedMode } from './guard.js';
import { loadCapabilitiesFile } from '../../openstack/capabilities-file.js';

/** Inputs of `kaas migrate-ingress [<cluster>]`. */
export interface MigrateOptions extends Pick<ApplyIngressOptions, 'settingsDir' | 'env' | 'environ' | 'cwd' | 'home' | 'sets' | 'kubeconfig' | 'context'> {
  cluster?: string;
  namespace?: string;
  file?: string;
  outputDir?: string;
  apply?: boolean;
  /** -o json: the objects and the notConverted list as data, not YAML on stdout. */
  json?: boolean;
  /** Routes of Ingresses whose protection is not converted: refuse (default), write them without parentRefs, or attach them anyway. */
  unprotected?: UnprotectedMode;
  /** The cloud's capabilities (kaas detect -o json): decides whether the gateway plan keeps client IPs when the settings alone do not. */
  capabilitiesFile?: string;
}

/** Adapters. */
export interface MigrateDeps {
  logger: Logger;
  runner: ProcessRunner;
  kubectlFor?: (t: KubeTarget) => Kubectl;
}

/** The field manager of migrated objects: never `kaas`, whose apply-gateway owns the Gateway's http listener. */
export const MIGRATE_FIELD_MANAGER = 'kaas-migrate-ingress';

/** The not-converted list as stderr lines, grouped per Ingress. */
export function formatNotConverted(c: Conversion): string[] {
  const lines: string[] = [];
  for (const s of c.skipped) lines.push(`skipped ${s.ingress}: ${s.reason}`);
  const by = new Map<string, { annotation: string; reason: string }[]>();
  for (const n of c.notConverted) by.set(n.ingress, [...(by.get(n.ingress) ?? []), n]);
  for (const [ingress, list] of by) {
    lines.push(`not converted in ${ingress}:`);
    for (const n of list) lines.push(`  - ${n.annotation}: ${n.reason}`);
  }
  return lines;
}

/**
 * The refusal when named Service ports stay unresolved: every backend (Ingress, where, Service,
 * port name, why), sorted, and what to do given where kaas looked.
 */
export function unresolvedPortsError(list: UnresolvedPort[], looked: { file: boolean; cluster: boolean }): UsageError {
  const problems = list.map((u) => `${u.ingress} ${u.where}: Service ${u.service} port "${u.portName}": ${u.problem}`).sort();
  const ways = [
    ...(looked.file ? ['add the Service manifests to --file'] : []),
    looked.cluster ? 'create the Service (or correct the port name) in the cluster' : 'name the cluster (kaas migrate-ingress <cluster> --file …) to read its live Services',
    'or give the backend port.number instead of port.name',
  ];
  return new UsageError(`${list.length} Ingress backend(s) name a Service port kaas cannot resolve to its number; an HTTPRoute backendRef to a Service needs the number (the API server refuses it without: "Must have port for Service reference"), so nothing was written`, {
    problems, hint: ways.join(', '),
  });
}

function fileName(o: KubeObject): string {
  return `${o.metadata.namespace ?? 'cluster'}/${o.kind.toLowerCase()}-${o.metadata.name}.yaml`;
}

/**
 * `kaas migrate-ingress`: Ingresses of class nginx from the cluster (or offline from --file) →
 * Gateway API objects attached to the kaas Gateway, checked against the bundled CRD schemas, to
 * stdout or --output-dir for review; --apply applies them server-side to the cluster.
 */
export async function runMigrateIngress(o: MigrateOptions, deps: MigrateDeps) {
  if (!o.cluster && !o.file) throw new UsageError('name a cluster to read its Ingresses, or --file FILE|DIR', { hint: 'kaas migrate-ingress demo, or kaas migrate-ingress --file k8s/' });
  if (o.apply && !o.cluster) throw new UsageError('--apply needs the cluster to apply to', { hint: 'kaas migrate-ingress <cluster> [--file F] --apply' });
  if (o.apply && o.outputDir) throw new UsageError('--apply and --output-dir exclude each other', { hint: 'write the files, review them, then kubectl apply --server-side --field-manager=kaas-migrate-ingress -R -f DIR (or re-run with --apply)' });
  const settings = loadSettings({ settingsDir: o.settingsDir, env: o.env, cluster: o.cluster, environ: o.environ, sets: o.sets, cwd: o.cwd });
  settings.warnings.forEach((w) => deps.logger.warn(w));
  const s = settings.values;
  let kubectl: Kubectl | undefined;
  if (o.cluster) {
    // --apply writes: its kubeconfig is checked against the Cluster (as apply-ingress's); a read is not.
    const target = o.apply ? await edgeKubeTarget({ ...o, cluster: o.cluster }, s, deps) : ingressKubeTarget({ ...o, cluster: o.cluster }, s);
    kubectl = kubectlFactory(deps)(target);
  }

  let ingresses: KubeObject[];
  let services: KubeObject[] = [];
  if (o.file) {
    const objects = readManifestFiles(path.resolve(o.cwd, o.file));
    const inNamespace = (x: KubeObject) => ({ ...x, metadata: { ...x.metadata, namespace: x.metadata.namespace ?? o.namespace ?? 'default' } });
    ingresses = unpack(objects).map(inNamespace);
    services = servicesIn(objects).map(inNamespace);
    if (o.namespace) ingresses = ingresses.filter((i) => i.metadata.namespace === o.namespace);
  } else {
    const args = ['get', 'ingresses.networking.k8s.io', ...(o.namespace ? ['--namespace', o.namespace] : ['--all-namespaces']), '-o', 'json'];
    const r = await kubectl!.run(args);
    ingresses = unpack([JSON.parse(r.stdout) as KubeObject]);
  }
  const version = (typeof s.deploy_gateway === 'string' && findBundledGateway(s.deploy_gateway)) || BUNDLED_GATEWAY_VERSIONS[0];
  const gw = { name: DEFAULT_GATEWAY, namespace: GATEWAY_NAMESPACE, httpListener: 'http', className: s.gateway_class };
  const fromFiles = serviceIndex(services);
  const mode = o.unprotected ?? 'refuse';
  // The gateway plan is per cluster (a cluster section may switch PROXY or OVN): without one, IP lists stay unconverted.
  const clientIps = o.cluster
    ? clientIpsFor(s, o.capabilitiesFile ? loadCapabilitiesFile(path.resolve(o.cwd, o.capabilitiesFile)) : undefined)
    : { kept: undefined, why: 'no cluster is named, and the gateway plan that decides it is per cluster (name it: kaas migrate-ingress <cluster> --file …)' };
  const convert = (index: typeof fromFiles) => convertIngresses(ingresses, gw, { services: index, clientIps, attachUnprotected: mode === 'attach' });
  let c = convert(fromFiles);
  if (c.unresolvedPorts.length && kubectl) {
    // Named ports the input does not resolve: the live Services of those namespaces (the input wins where both have one).
    const live: KubeObject[] = [];
    for (const ns of [...new Set(c.unresolvedPorts.map((u) => u.namespace))].sort()) {
      live.push(...servicesIn([(await kubectl.getJson<KubeObject>('services', undefined, { namespace: ns }))!]));
    }
    c = convert(mergeIndexes(fromFiles, serviceIndex(live)));
  }
  if (c.unresolvedPorts.length) throw unresolvedPortsError(c.unresolvedPorts, { file: !!o.file, cluster: !!kubectl });
  if (c.unprotected.length && mode === 'refuse') throw unprotectedError(c);
  validateGatewayObjects(version, c.objects, 'migrated Gateway API objects');
  deps.logger.info(`${ingresses.length} Ingress object(s) read; ${c.objects.length} Gateway API object(s) written; ${c.notConverted.length} annotation(s) not converted; ${c.skipped.length} Ingress(es) skipped`);
  if (!o.json) formatNotConverted(c).forEach((l) => deps.logger.warn(l));
  reportUnprotected(c, mode, deps.logger);
  secretInstructions(c).forEach((l) => deps.logger.warn(l));
  const data = { objects: c.objects, notConverted: c.notConverted, unprotected: c.unprotected, secrets: c.secrets, skipped: c.skipped };
  const yaml = stringifyDocuments(c.objects);

  if (o.outputDir) {
    const dir = path.resolve(o.cwd, o.outputDir);
    // One folder per namespace; the whole set at once, as --output-dir is everywhere (output-dir.ts).
    const set = c.objects.map((x) => ({ name: fileName(x), text: stringifyDocuments([x]), secret: false }));
    const files = writeOutputDir(dir, set, 'migrate-ingress', (m) => deps.logger.warn(m));
    deps.logger.info(`wrote ${files.length} file(s) under ${dir}`);
    return { data: { ...data, files }, text: '' };
  }
  if (o.apply) {
    if (!c.objects.length) return { data, text: 'nothing to apply' };
    await requireHtpasswdSecrets(c, kubectl!);
    const step = deps.logger.step(`applying ${c.objects.length} Gateway API object(s) (server-side, field manager ${MIGRATE_FIELD_MANAGER})`);
    try {
      await kubectl!.apply(yaml, { fieldManager: MIGRATE_FIELD_MANAGER });
      step.succeed();
    } catch (e) {
      step.fail();
      throw e;
    }
    return { data, text: `${c.objects.length} Gateway API object(s) applied to cluster ${o.cluster}; the Ingresses stay until you delete them (switch DNS per host first)` };
  }
  return o.json ? { data } : { raw: yaml, data };
}
