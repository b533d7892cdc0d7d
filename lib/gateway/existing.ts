import { PlanError } from '../errors.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';

/**
 * What is already on a cluster before apply-gateway's forced (server-side, --force-conflicts) CRD apply:
 * Gateway API CRDs of another bundle version or channel (an SCS cluster with DEPLOY_GATEWAY_API has
 * Cilium's), and other GatewayClasses. The judgement is pure; apply-gateway prints it and refuses (exit 2,
 * nothing applied) what would downgrade or de-experimentalize CRDs without --force, and a GatewayClass of
 * kaas's name owned by another controller always.
 */

/** A Gateway API CRD as found: its bundle version and channel annotations (absent when not from a release bundle). */
export interface FoundCrd { name: string; version?: string; channel?: string }
/** A GatewayClass as found. */
export interface FoundClass { name: string; controller: string }

/** What apply-gateway will do to what it found. */
export interface ExistingJudgement {
  /** Said before applying (stderr). */
  lines: string[];
  /** Overridable by --force. */
  refusals: string[];
  /** Never overridable. */
  conflicts: string[];
}

const BUNDLE = 'gateway.networking.k8s.io/bundle-version';
const CHANNEL = 'gateway.networking.k8s.io/channel';
/** Envoy Gateway's GatewayClass controller (templates/gateway/kaas/edge.yaml.hbs). */
export const EG_CONTROLLER = 'gateway.envoyproxy.io/gatewayclass-controller';

/** vX.Y.Z(-pre) → comparable numbers; undefined when it is not one. */
function semver(v: string): [number, number, number] | undefined {
  const m = /^v(\d+)\.(\d+)\.(\d+)/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}
function compare(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The judgement of the found CRDs and GatewayClasses against the bundle (version, standard channel) and kaas's gateway_class. */
export function judgeExisting(crds: FoundCrd[], classes: FoundClass[], bundle: { gatewayApi: string; gatewayClass: string }): ExistingJudgement {
  const j: ExistingJudgement = { lines: [], refusals: [], conflicts: [] };
  const want = semver(bundle.gatewayApi)!;
  if (!crds.length) j.lines.push(`no Gateway API CRDs yet: installing ${bundle.gatewayApi} (standard channel)`);
  const groups = new Map<string, string[]>();
  for (const c of crds) {
    const have = c.version ? semver(c.version) : undefined;
    let what: string;
    if (c.channel && c.channel !== 'standard') {
      what = `${c.channel} channel ${c.version ?? '(no version)'}: replaced by the standard channel ${bundle.gatewayApi}`;
      j.refusals.push(`CRD ${c.name} is ${c.channel} channel ${c.version ?? ''}: the standard channel drops its experimental fields from every stored object's next write, and the apply fails on a version still stored that standard does not serve`);
    } else if (!have) {
      what = `no bundle version (not from a Gateway API release): replaced by ${bundle.gatewayApi} standard`;
    } else if (compare(have, want) > 0) {
      what = `${c.version}, newer: would be downgraded to ${bundle.gatewayApi}`;
      j.refusals.push(`CRD ${c.name} is ${c.version}, newer than kaas's ${bundle.gatewayApi}: the apply would downgrade it (fields of the newer API dropped)`);
    } else if (compare(have, want) < 0) what = `${c.version} standard: upgraded to ${bundle.gatewayApi}`;
    else what = `${c.version} standard: kept (re-applied unchanged)`;
    groups.set(what, [...(groups.get(what) ?? []), c.name.replace(/\.gateway\.networking\.k8s\.io$/, '')]);
  }
  for (const [what, names] of groups) j.lines.push(`Gateway API CRDs ${names.join(', ')}: ${what}`);
  for (const c of classes) {
    if (c.name === bundle.gatewayClass && c.controller !== EG_CONTROLLER) {
      j.conflicts.push(`GatewayClass ${c.name} exists with controller ${c.controller}: applying kaas's GatewayClass of that name would hand its Gateways to Envoy Gateway`);
    } else if (c.name !== bundle.gatewayClass) {
      j.lines.push(`GatewayClass ${c.name} (controller ${c.controller}) is left alone: its Gateways and routes stay with that controller; kaas adds GatewayClass ${bundle.gatewayClass}`);
    }
  }
  return j;
}

/** Reads the Gateway API CRDs of the bundle that exist (names, bundle version, channel; no schemas printed) and every GatewayClass. */
export async function readExisting(kubectl: Kubectl, crdNames: string[]): Promise<{ crds: FoundCrd[]; classes: FoundClass[] }> {
  const names = crdNames.filter((n) => n.endsWith('.gateway.networking.k8s.io'));
  const tmpl = `go-template={{range .items}}{{.metadata.name}} {{with .metadata.annotations}}{{index . "${BUNDLE}"}} {{index . "${CHANNEL}"}}{{end}}{{"\\n"}}{{end}}`;
  const r = await kubectl.run(['get', 'crd', ...names, '--ignore-not-found', '-o', tmpl]);
  const field = (v: string | undefined) => (v && v !== '<no value>' ? v : undefined);
  const crds = r.stdout.split('\n').filter((l) => l.trim()).map((l) => {
    const [name, version, channel] = l.trim().split(/\s+/);
    return { name, version: field(version), channel: field(channel) };
  });
  if (!crds.some((c) => c.name === 'gatewayclasses.gateway.networking.k8s.io')) return { crds, classes: [] };
  const g = await kubectl.run(['get', 'gatewayclasses.gateway.networking.k8s.io', '-o', 'go-template={{range .items}}{{.metadata.name}} {{.spec.controllerName}}{{"\\n"}}{{end}}']);
  const classes = g.stdout.split('\n').filter((l) => l.trim()).map((l) => {
    const [name, controller] = l.trim().split(/\s+/);
    return { name, controller };
  });
  return { crds, classes };
}

/** Says what the CRD apply will do to what exists; refuses (exit 2, nothing applied) a downgrade or channel change without force, a foreign GatewayClass of kaas's name always. */
export function reportExisting(j: ExistingJudgement, logger: Logger, force: boolean): void {
  j.lines.forEach((l) => logger.info(l));
  if (j.conflicts.length) {
    throw new PlanError('a GatewayClass of kaas\'s name belongs to another controller; nothing was applied', { problems: j.conflicts, hint: 'set gateway_class to a name no GatewayClass has (e.g. --set gateway_class=kaas-envoy)' });
  }
  if (!j.refusals.length) return;
  if (force) {
    j.refusals.forEach((r) => logger.warn(`--force: ${r}`));
    return;
  }
  throw new PlanError('the cluster\'s Gateway API CRDs are not ones kaas\'s bundle can replace safely; nothing was applied', {
    problems: j.refusals,
    hint: 'keep the cluster on its CRDs (deploy_gateway: false), or apply anyway with --force after checking what uses the experimental or newer API (kubectl get gateways,httproutes -A)',
  });
}
