import { isIp, parseCidr } from '../net/cidr.js';
import { KNOWN_LB_OPTIONS } from './occm-options.js';
import { registryMirrorProblems } from './registry-mirrors.js';
import { expectation } from './schema.js';
import { valueSenseProblems } from './semantics.js';
import { didYouMeanIn } from './suggest.js';
import type { SettingDecl, SettingType } from './table.js';
import { validatorFor } from './validators.js';

/** Shows a value the way the user wrote it: strings quoted, the rest as YAML-ish JSON. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 100)}… (${text.length} characters)` : text;
}

/** SCS wrote lists as one string: "[ 10.0.0.1/32, 192.0.2.0/24, ]" (trailing comma allowed). */
export function parseScsList(text: string): string[] {
  return text
    .trim()
    .replace(/^\[/, '')
    .replace(/\]$/, '')
    .split(',')
    .map((s) => s.trim().replace(/^["']|["']$/g, ''))
    .filter((s) => s !== '');
}

/**
 * Checks one value against its declaration, with the same JSON Schema that `settings schema`
 * publishes, and returns the problems as sentences (without the location prefix).
 * `path` is the full dotted path used in the message.
 */
export function checkValue(decl: SettingDecl, value: unknown, path: string): string[] {
  const schemaOk = validatorFor(decl.type)(value) as boolean;
  const precise = decl.type.kind === 'chartRepo' ? chartRepoProblems(decl, value, path) : addressProblems(decl.type, value, path);
  if (precise.length) return precise;
  if (schemaOk) {
    const sense = valueSenseProblems(decl, value, path);
    if (sense.length) return sense;
    if (decl.key === 'controller_count') return controllerCountProblems(value, path);
    return decl.key === 'occm_loadbalancer' ? unknownOccmKeys(value, path) : [];
  }
  return [`${path}: ${show(value)} is not ${expectation(decl.type)}${booleanHint(decl.type, value)}`];
}

/** CIDR and IP problems item by item, with the precise reason (host bits, duplicates, "none"). */
function addressProblems(t: SettingType, value: unknown, path: string): string[] {
  if (t.kind === 'registryMirrors') return registryMirrorProblems(value, path);
  if ((t.kind === 'cidrList' || t.kind === 'ipList') && Array.isArray(value)) {
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item !== 'string') out.push(`${path}[${i}]: ${show(item)} is not a string`);
      else if (t.kind === 'ipList' && !isIp(item)) out.push(`${path}[${i}]: ${show(item)} is not an IP address`);
      else if (t.kind === 'cidrList' && item === 'none' && t.allowNone && value.length > 1)
        out.push(`${path}[${i}]: "none" must be the only entry (it means exclusive internal access: only the management host)`);
      else if (t.kind === 'cidrList' && !(item === 'none' && t.allowNone)) {
        const c = parseCidr(item, t.bareIpAsHost);
        if ('error' in c) out.push(`${path}[${i}]: ${c.error}`);
      }
    });
    const dup = value.find((v, i) => value.indexOf(v) !== i);
    if (dup !== undefined) out.push(`${path}: ${show(dup)} is listed twice`);
    return out;
  }
  if (t.kind === 'cidr' && typeof value === 'string') {
    const c = parseCidr(value);
    if ('error' in c) return [`${path}: ${c.error}`];
  }
  return [];
}

/**
 * A chart source without a scheme or with one helm does not fetch charts over, said with the fix: helm
 * takes an http(s) chart repository (`--repo`) or an oci:// chart reference. Other shapes fall through
 * to the schema's sentence.
 */
function chartRepoProblems(decl: SettingDecl, value: unknown, path: string): string[] {
  if (typeof value !== 'string' || value === '') return [];
  // Credentials in the URL would be printed (the plan names the source) and passed on helm's command line;
  // this message masks them, and it comes before any other that would show the value.
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s]*@/.test(value)) {
    return [`${path}: ${show(value.replace(/\/\/[^/?#\s]*@/, '//***@'))} carries credentials; kaas prints the chart source and passes it on helm's command line: remove them and log in outside kaas (helm registry login for oci://, or a mirror reachable from the management host without credentials)`];
  }
  const chart = decl.key.replace(/_chart_repo$/, '').replace(/_/g, '-');
  const oci = (host: string) => `an oci:// chart reference (e.g. "oci://${host}/charts/${chart}")`;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(value)?.[1];
  if (scheme === undefined) return [`${path}: ${show(value)} has no scheme; write ${show(`https://${value.replace(/^\/+/, '')}`)} for a Helm chart repository, or ${oci('registry.example')}`];
  if (!['https', 'http', 'oci'].includes(scheme.toLowerCase())) {
    return [`${path}: ${show(value)} has the scheme ${scheme}://, which helm does not fetch charts over; write a Helm chart repository URL (https://, or http:// on a trusted network) or ${oci('registry.example')}`];
  }
  if (scheme !== scheme.toLowerCase()) return [`${path}: ${show(value)}: write the scheme in lower case, ${show(scheme.toLowerCase() + value.slice(scheme.length))}`];
  const ref = /^oci:\/\/([^/?#\s]+)\/?$/.exec(value);
  if (ref) return [`${path}: ${show(value)} names a registry but no chart; write ${oci(ref[1])}`];
  return [];
}

/** The bash scripts treated anything but `true` as false; kaas says what it saw instead. */
export function booleanHint(t: SettingType, value: unknown): string {
  const boolish = t.kind === 'boolean' || t.kind === 'boolOrVersion' || (t.kind === 'enum' && t.values.includes(true));
  if (!boolish || typeof value !== 'string') return '';
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'false') return ` (write ${v} without quotes or spaces)`;
  if (['yes', 'no', 'on', 'off', 'y', 'n', '1', '0'].includes(v)) return ` (write ${['yes', 'on', 'y', '1'].includes(v) ? 'true' : 'false'})`;
  return '';
}

/** Keys of an `occm_loadbalancer` map that OCCM does not know, each with the closest known one. */
export function unknownOccmKeys(value: unknown, path: string): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const unknown = Object.keys(value).filter((k) => !KNOWN_LB_OPTIONS.includes(k)).sort();
  return unknown.map((k) => `${path}.${k}: not a cloud.conf [LoadBalancer] option of OCCM${didYouMeanIn(k, KNOWN_LB_OPTIONS)} (known: ${KNOWN_LB_OPTIONS.join(', ')})`);
}

/**
 * kaas's control plane runs etcd stacked on its nodes, and Cluster API's KubeadmControlPlane webhook
 * refuses an even replica count then (CAPI v1.12 controlplane/kubeadm/internal/webhooks/kubeadmcontrolplane.go
 * validateCommon: "cannot be an even number when etcd is stacked"): say so before anything is created.
 */
function controllerCountProblems(value: unknown, path: string): string[] {
  if (typeof value !== 'number' || value % 2 !== 0) return [];
  return [`${path}: ${value} is even; the control plane runs stacked etcd, and Cluster API's KubeadmControlPlane webhook refuses it ("spec.replicas: Forbidden: cannot be an even number when etcd is stacked"): use 1, 3, 5 or 7`];
}
