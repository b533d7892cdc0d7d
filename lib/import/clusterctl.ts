import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import { registerSecret, SECRET_KEY_PATTERN } from '../redact.js';
import { yamlErrors } from '../settings/file.js';
import { duplicateKeys, keyText, nodeValue, parseUserYaml, resolveNode } from '../fs/yaml-read.js';
import type { DropCategory, ImportCollector, RawValue } from './convert.js';
import { LEGACY } from '../settings/table.js';

/** SCS keys kaas does not take over, and why (the SCS names are from clusterctl.yaml.tmpl). */
export const SCS_DROPPED: ReadonlyMap<string, { category: DropCategory; reason: string }> = new Map([
  ['OPENSTACK_CLOUD_YAML_B64', { category: 'secret', reason: 'secret: kaas reads clouds.yaml itself (setting cloud); secrets never go into settings files' }],
  ['OPENSTACK_CLOUD_PROVIDER_CONF_B64', { category: 'secret', reason: 'secret: kaas writes cloud.conf itself from clouds.yaml and occm_loadbalancer' }],
  ['OPENSTACK_CLOUD_CACERT_B64', { category: 'secret', reason: 'secret: kaas takes the CA bundle from clouds.yaml (cacert)' }],
  ['OPENSTACK_SRVGRP_CONTROLLER', { category: 'derived', reason: 'derived by kaas: it creates the server groups from anti_affinity and looks up their IDs' }],
  ['OPENSTACK_SRVGRP_WORKER', { category: 'derived', reason: 'derived by kaas: it creates the server groups from anti_affinity and looks up their IDs' }],
  ['DEPLOY_FLUX', { category: 'unsupported', reason: 'not supported: kaas does not deploy flux' }],
  ['PROXY_CMD', { category: 'unsupported', reason: 'not supported: kaas runs no shell snippets; give it HTTPS_PROXY/NO_PROXY in its environment' }],
  ['OPENSTACK_IMAGE_RAW', { category: 'unsupported', reason: 'not supported: kaas does not upload node images; register the image in Glance first' }],
  ['OPENSTACK_IMAGE_REGISTRATION_EXTRA_FLAGS', { category: 'unsupported', reason: 'not supported: kaas does not upload node images' }],
]);

/** True for keys whose values are secrets: the known ones, anything base64 (`*_B64`), secret-named keys. */
export function isSecretKey(name: string): boolean {
  return SCS_DROPPED.get(name)?.category === 'secret' || /B64$/i.test(name) || SECRET_KEY_PATTERN.test(name);
}

/** What a clusterctl.yaml holds, as raw values in file order (read errors as problems). */
export function readClusterctl(text: string, file: string): { raws: RawValue[]; problems: string[] } {
  // Linear time: the size cap, and duplicate keys found with a Set (yaml's uniqueKeys compares every
  // key with every earlier one: 50 000 keys took 78 s, during which SIGINT/SIGTERM waited).
  const parsed = parseUserYaml(text, { merge: true });
  if ('tooLarge' in parsed) return { raws: [], problems: [`${file}: ${parsed.tooLarge}`] };
  const { doc, lc } = parsed;
  const where = (n: Node | null | undefined) => {
    const p = lc.linePos(n?.range?.[0] ?? 0);
    return `${file}:${p.line}:${p.col}`;
  };
  const problems = yamlErrors(doc.errors, text, lc, file);
  if (problems.length) return { raws: [], problems };
  if (!isMap(doc.contents)) return { raws: [], problems: [`${file}: a clusterctl.yaml must be a map of KEY: value`] };
  for (const d of duplicateKeys(doc)) problems.push(`${where({ range: [d.offset, d.offset, d.offset] } as Node)}: ${d.key}: the key is given twice`);
  // Aliases are resolved as any YAML reader does (they used to reach the settings as {"source": "f"}); an
  // alias inside its own anchor is a problem naming it, not "Converting circular structure to JSON".
  const raws: RawValue[] = [];
  for (const { pair, at } of withMerges(doc, doc.contents.items as Pair[], problems, where)) {
    const k = pair.key as Node;
    const v = pair.value as Node | null;
    if (isAlias(k)) {
      problems.push(`${where(k)}: an alias (*${k.source}) is used as a key; write the key out`);
      continue;
    }
    const name = String(isScalar(k) ? k.value : k);
    const r = nodeValue(doc, v);
    if ('error' in r) {
      problems.push(`${where(v ?? k)}: ${name}: ${r.error}`);
      continue;
    }
    const target = resolveNode(doc, v);
    const text = target && isScalar(target) ? (target.source ?? String(target.value)) : JSON.stringify(r.value);
    raws.push({ name, where: at ?? where(k), value: r.value, text });
  }
  if (!problems.length) problems.push(...notClusterctl(raws.map((r) => r.name), file));
  return { raws, problems };
}

/**
 * SCS's DEPLOY_GATEWAY_API (the Gateway API CRDs with Cilium's Gateway implementation) → deploy_gateway:
 * kaas deploys the Gateway API standard CRDs with Envoy Gateway; on a cluster that has them already,
 * apply-gateway says what its forced CRD apply does to them and which other GatewayClasses it leaves.
 */
function importGatewayApi(raw: RawValue, c: ImportCollector): void {
  c.take('deploy_gateway', raw);
  if (c.values.deploy_gateway !== true) return;
  c.notes.push(`${raw.name} (${raw.where}) → deploy_gateway: true: kaas deploys Envoy Gateway (GatewayClass gateway_class, default kaas), not Cilium's Gateway; the cluster's Gateway API CRDs are taken over (apply-gateway names their bundle version and channel and the other GatewayClasses before it applies anything, and refuses a downgrade or an experimental channel without --force); Cilium's Gateways and their routes stay on Cilium`);
}

/**
 * The entries of a map with YAML merge keys (`<<: *base`, `<<: [*a, *b]`) applied as YAML 1.1 says:
 * the merged map's keys come in unless the map sets them itself (earlier maps of a list win). Each
 * merged entry is placed at its `<<` line. They used to be dropped with their values.
 */
function withMerges(doc: Document, items: Pair[], problems: string[], where: (n: Node | null | undefined) => string): { pair: Pair; at?: string }[] {
  const own = items.filter((p) => !isMergeKey(p.key));
  const seen = new Set(own.map((p) => keyText(p.key)));
  const out: { pair: Pair; at?: string }[] = own.map((pair) => ({ pair }));
  for (const m of items.filter((p) => isMergeKey(p.key))) {
    const value = m.value as Node | null;
    const sources = isSeq(value) ? (value.items as Node[]) : [value];
    for (const src of sources) {
      const map = resolveNode(doc, src);
      if (!isMap(map)) {
        problems.push(`${where(src ?? (m.key as Node))}: <<: merges only maps (an alias of a map, or a list of them)`);
        continue;
      }
      for (const pair of map.items as Pair[]) {
        const k = keyText(pair.key);
        if (seen.has(k) || isMergeKey(pair.key)) continue;
        seen.add(k);
        out.push({ pair, at: where(m.key as Node) });
      }
    }
  }
  return out;
}

// With `merge: true`, yaml reads a plain `<<` key as a symbol (a quoted '<<' stays a string key).
const isMergeKey = (k: unknown) => isScalar(k) && typeof k.value === 'symbol';

/**
 * A clusterctl.yaml sets SCS variables: upper-case names (KUBERNETES_VERSION, OPENSTACK_…). A file
 * without any — a clouds.yaml, kaas's own settings file, Helm values, a compose file, `{}` — became an
 * empty cluster section with exit 0; it is named for what it looks like instead.
 */
export function notClusterctl(keys: string[], file: string): string[] {
  if (keys.some((k) => /^[A-Z][A-Z0-9_]*$/.test(k))) return [];
  const has = (k: string) => keys.includes(k);
  const looks = keys.length === 0 ? 'it holds no KEY: value at all'
    : has('clouds') ? 'it looks like a clouds.yaml (clouds:)'
    : has('clusters') || keys.filter((k) => LEGACY_KEYS.has(k)).length * 2 >= keys.length ? 'it looks like a kaas settings file (lower-case setting names)'
    : has('services') && (has('version') || has('volumes') || has('networks')) ? 'it looks like a compose file (services:)'
    : `its keys (${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}) are not SCS variables`;
  return [`${file}: not a clusterctl.yaml: ${looks}; a clusterctl.yaml sets upper-case SCS variables such as KUBERNETES_VERSION: "v1.32.3"`];
}

const LEGACY_KEYS = new Set([...LEGACY.values()].map(String));

/**
 * Takes every clusterctl.yaml key into the collector: settings under their legacy names,
 * secrets dropped unseen (and registered for redaction), the rest dropped with the reason.
 */
export function importClusterctl(raws: RawValue[], c: ImportCollector): void {
  const version = raws.find((r) => r.name === 'KUBERNETES_VERSION')?.text;
  for (const raw of raws) {
    if (isSecretKey(raw.name)) {
      registerSecret(raw.value);
      c.drop(raw, 'secret', SCS_DROPPED.get(raw.name)?.reason ?? 'secret (base64 or secret-named): never copied into settings files');
      continue;
    }
    const fixed = SCS_DROPPED.get(raw.name);
    if (fixed) {
      c.drop(raw, fixed.category, fixed.reason);
      continue;
    }
    if (raw.name === 'OPENSTACK_IMAGE_NAME' && version !== undefined && raw.text === `ubuntu-capi-image-${version}`) {
      c.drop(raw, 'derived', 'derived by kaas from kubernetes_version (image "" = ubuntu-capi-image-<kubernetes_version>)');
      continue;
    }
    if (raw.name === 'DEPLOY_GATEWAY_API') {
      importGatewayApi(raw, c);
      continue;
    }
    const key = LEGACY.get(raw.name);
    if (!key) {
      c.drop(raw, 'unknown', 'unknown to kaas: no setting has this SCS name');
      continue;
    }
    c.take(key, raw);
    // SCS names the keypair "<prefix>-keypair"; kaas needs the prefix to find the server groups.
    const m = key === 'ssh_key_name' && typeof raw.value === 'string' ? /^(.+)-keypair$/.exec(raw.value) : null;
    if (m && /^[a-z0-9][-a-z0-9]*$/.test(m[1])) {
      c.set('prefix', m[1], `${raw.name} (${raw.where}; SCS names the keypair <prefix>-keypair)`);
      c.notes.push(`prefix "${m[1]}" inferred from ${raw.name} "${raw.value}"`);
    }
  }
}
