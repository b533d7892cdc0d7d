import type { CloudConfig } from '../openstack/cloud-config.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import { PlanError } from '../errors.js';
import { KNOWN_LB_OPTIONS } from '../settings/occm-options.js';
import type { ScalarMap } from '../settings/types.js';
import { bundledTemplate } from './bundled.js';

/**
 * The OCCM cloud config (cloud.conf): [Global] from the cloud's credentials, [LoadBalancer] from
 * kaas's defaults, the user's `occm_loadbalancer` map and the keys the plans require. Rendered
 * through templates/cloud-conf/cloud.conf.hbs. The result holds a secret: write it mode 0600.
 */

export { KNOWN_LB_OPTIONS } from '../settings/occm-options.js';

/** kaas's own [LoadBalancer] defaults (the SCS template's, minus `use-octavia`, removed in OCCM v1.26). */
export const LB_DEFAULTS: Record<string, string> = { 'manage-security-groups': 'true' };

/** What cloud.conf is made of. `cloud` undefined → no [Global] (dry-run without credentials). */
export interface CloudConfInput {
  cloud?: CloudConfig;
  lb: LoadBalancerPlan;
  occm: ScalarMap;
  /** Keys other plans require (the ingress plan's enable-ingress-hostname with PROXY protocol). */
  required?: Record<string, string>;
  /**
   * Path of the CA bundle inside the OCCM/CSI pods. Set it only when the CA is in the Secret
   * (ca.crt); cloud.conf then names it as ca-file. Unset: no ca-file (a ca-file whose file is
   * missing stops OCCM at start).
   */
  caFileInPod?: string;
}

/** A rendered cloud.conf with what went into it. */
export interface CloudConf {
  text: string;
  global: [string, string][];
  loadBalancer: [string, string][];
  warnings: string[];
}

const SECRET_KEYS = new Set(['password', 'application-credential-secret']);

/** gcfg value syntax: bare when safe, else double-quoted with \\ and \" escaped. Secrets and region always quoted (as SCS did). */
export function iniValue(key: string, value: string): string {
  const bare = /^[A-Za-z0-9._:/@+,=-]*$/.test(value) && !SECRET_KEYS.has(key) && key !== 'region';
  return bare ? value : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const norm = (v: string | number | boolean) => String(v).trim().toLowerCase();

/** Where the cloud-config Secret is mounted in the OCCM and Cinder CSI pods, and its CA file there. */
export const CA_FILE_IN_POD = '/etc/config/ca.crt';

/**
 * [Global] pairs: application credential preferred, password auth accepted with a warning.
 * TLS: `verify: false` → tls-insecure=true and no ca-file (nothing is checked, so a CA is moot);
 * else ca-file only when `caFileInPod` is given, i.e. the CA is mounted from the Secret.
 */
export function globalSection(cloud: CloudConfig, caFileInPod?: string): { pairs: [string, string][]; warnings: string[] } {
  const a = cloud.auth;
  const pairs: [string, string][] = [['auth-url', a.authUrl]];
  const warnings: string[] = [];
  if (cloud.regionName) pairs.push(['region', cloud.regionName]);
  else warnings.push(`cloud "${cloud.name}" names no region: cloud.conf [Global] gets no region, which OCCM requires; set region_name in clouds.yaml (or OS_REGION_NAME)`);
  const add = (k: string, v: string | undefined) => v && pairs.push([k, v]);
  if (a.kind === 'application_credential') {
    add('application-credential-id', a.applicationCredentialId);
    if (!a.applicationCredentialId) {
      add('application-credential-name', a.applicationCredentialName);
      add('user-id', a.userId);
      add('username', a.username);
      add('user-domain-name', a.userDomainName);
      add('user-domain-id', a.userDomainId);
    }
    add('application-credential-secret', a.applicationCredentialSecret);
  } else {
    warnings.push(`cloud "${cloud.name}" uses a password: cloud.conf will hold it; an application credential is safer (openstack application credential create)`);
    add('user-id', a.userId);
    add('username', a.username);
    add('password', a.password);
    add('user-domain-name', a.userDomainName);
    add('user-domain-id', a.userDomainId);
    add('tenant-id', a.projectId);
    add('tenant-name', a.projectName);
    add('tenant-domain-name', a.projectDomainName);
    add('tenant-domain-id', a.projectDomainId);
  }
  if (cloud.interface !== 'public') pairs.push(['os-endpoint-type', cloud.interface]);
  if (!cloud.verify) pairs.push(['tls-insecure', 'true']);
  else if (cloud.cacert && caFileInPod) pairs.push(['ca-file', caFileInPod]);
  else if (cloud.cacert) warnings.push(`cloud "${cloud.name}" names cacert ${cloud.cacert}, but the CA is not in the cloud-config Secret: cloud.conf gets no ca-file`);
  return { pairs, warnings };
}

/**
 * [LoadBalancer] pairs: defaults < occm_loadbalancer < required keys. A user value contradicting a
 * required one is a PlanError naming both (e.g. `lb-provider: amphora` while the plan chose OVN);
 * so are unknown option names (OCCM ignores them silently) and `lb-provider: ovn` without the OVN plan.
 */
export function loadBalancerSection(lb: LoadBalancerPlan, occm: ScalarMap, required: Record<string, string> = {}): [string, string][] {
  const problems: string[] = [];
  const unknown = Object.keys(occm).filter((k) => !KNOWN_LB_OPTIONS.includes(k));
  for (const k of unknown.sort()) problems.push(`occm_loadbalancer.${k}: not a cloud.conf [LoadBalancer] option of OCCM`);
  const need: Record<string, string> = { ...lb.cloudConf, ...required };
  for (const [k, v] of Object.entries(need)) {
    if (occm[k] !== undefined && norm(occm[k]) !== norm(v)) {
      problems.push(`occm_loadbalancer.${k}: ${occm[k]} contradicts ${k}=${v} required by the plan (${lb.ovn && k in lb.cloudConf ? 'OVN chosen' : `provider ${lb.provider}`})`);
    }
  }
  if (!lb.ovn && occm['lb-provider'] !== undefined && norm(occm['lb-provider']) === 'ovn') {
    problems.push('occm_loadbalancer.lb-provider: ovn, but the plan does not use OVN; set use_ovn_lb_provider instead');
  }
  // Octavia's amphora driver accepts ROUND_ROBIN, LEAST_CONNECTIONS and SOURCE_IP only
  // (AMPHORA_SUPPORTED_LB_ALGORITHMS): OVN's SOURCE_IP_PORT left in place would fail every pool.
  if (lb.provider === 'amphora' && occm['lb-method'] !== undefined && norm(occm['lb-method']) === 'source_ip_port') {
    problems.push('occm_loadbalancer.lb-method: SOURCE_IP_PORT is the OVN algorithm; the amphora provider accepts ROUND_ROBIN, LEAST_CONNECTIONS or SOURCE_IP');
  }
  if (problems.length) {
    throw new PlanError('cloud.conf [LoadBalancer] cannot be built', {
      problems, hint: 'remove or fix these keys in occm_loadbalancer (kaas sets provider keys from use_ovn_lb_provider)',
    });
  }
  const merged: Record<string, string> = { ...LB_DEFAULTS };
  for (const [k, v] of Object.entries(occm)) merged[k] = String(v);
  Object.assign(merged, need);
  return Object.entries(merged).sort(([a], [b]) => compareKeys(a, b));
}

const PLAIN_KEY = /^[a-z0-9-]*$/;

/**
 * `a.localeCompare(b)` without the collator's start-up (~6 ms, once per process) for keys of
 * lower-case letters, digits and '-', where the two orders agree (test/unit/render/compare-keys.test.ts).
 */
export function compareKeys(a: string, b: string): number {
  if (PLAIN_KEY.test(a) && PLAIN_KEY.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}

/** Renders cloud.conf. Throws PlanError on conflicts (see loadBalancerSection). */
export function renderCloudConf(input: CloudConfInput): CloudConf {
  const g = input.cloud ? globalSection(input.cloud, input.caFileInPod) : { pairs: [], warnings: [] };
  const loadBalancer = loadBalancerSection(input.lb, input.occm, input.required);
  const lines = (pairs: [string, string][]) => pairs.map(([key, v]) => ({ key, value: iniValue(key, v) }));
  const text = bundledTemplate('cloud-conf/cloud.conf.hbs').render({
    hasGlobal: input.cloud !== undefined,
    cloudName: input.cloud?.name ?? '',
    global: lines(g.pairs),
    loadBalancer: lines(loadBalancer),
  });
  return { text, global: g.pairs, loadBalancer, warnings: g.warnings };
}
