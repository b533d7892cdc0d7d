import type { CloudConfig } from '../openstack/cloud-config.js';
import { bundledTemplate } from './bundled.js';

/**
 * The OCCM cloud config (cloud.conf): [Global] from the cloud's credentials, [LoadBalancer] as
 * decided by the plan (lib/plan/occm-loadbalancer.ts: defaults, `occm_loadbalancer`, required
 * keys). Rendered through templates/cloud-conf/cloud.conf.hbs; rendering cannot fail. The result
 * holds a secret: write it mode 0600.
 */

/** What cloud.conf is made of. `cloud` undefined → no [Global] (dry-run without credentials). */
export interface CloudConfInput {
  cloud?: CloudConfig;
  /** The [LoadBalancer] pairs the plan decided (planOccmLoadBalancer). */
  loadBalancer: [string, string][];
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

/** Renders cloud.conf from the credentials and the decided [LoadBalancer] pairs. */
export function renderCloudConf(input: CloudConfInput): CloudConf {
  const g = input.cloud ? globalSection(input.cloud, input.caFileInPod) : { pairs: [], warnings: [] };
  const { loadBalancer } = input;
  const lines = (pairs: [string, string][]) => pairs.map(([key, v]) => ({ key, value: iniValue(key, v) }));
  const text = bundledTemplate('cloud-conf/cloud.conf.hbs').render({
    hasGlobal: input.cloud !== undefined,
    cloudName: input.cloud?.name ?? '',
    global: lines(g.pairs),
    loadBalancer: lines(loadBalancer),
  });
  return { text, global: g.pairs, loadBalancer, warnings: g.warnings };
}
