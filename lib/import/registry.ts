import path from 'node:path';
import { checkValue } from '../settings/check.js';
import type { ImportCollector, RawValue } from './convert.js';
import { declOf } from '../settings/table.js';
import type { RegistryMirror } from '../settings/types.js';

/**
 * SCS's `containerd_registry_files = {"hosts": [...], "certs": [...]}` (terraform/environments/
 * environment-default.tfvars) into `registry_mirrors`. SCS copied each hosts file to
 * /etc/containerd/certs.d/<file name>/hosts.toml and each cert to /etc/containerd/certs/<file name>
 * on every node (terraform/files/bin/configure_containerd.sh, KubeadmControlPlaneTemplate and
 * KubeadmConfigTemplate `files:`). A hosts file is read as the part of containerd's hosts.toml
 * (docs/hosts.md) that registry_mirrors expresses; anything else is a note naming file, line and key.
 */

/** The SCS default when the tfvars do not set it (environment-default.tfvars). */
export const SCS_REGISTRY_DEFAULT = '{"hosts":["./files/containerd/docker.io"], "certs":[]}';

/** A file the tfvars name, as import read it: its text, or why it could not be read. */
export type RegistryFileRead = { text: string; shown: string } | { error: string };

interface HostsFile {
  root: Record<string, unknown>;
  hosts: { url: string; keys: Record<string, unknown> }[];
}

const VALUE = /^("(?:[^"\\]|\\.)*"|'[^']*'|true|false|\[[^\]]*\])\s*(#.*)?$/;

function tomlValue(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (text.startsWith("'")) return text.slice(1, -1);
  if (text.startsWith('"')) return JSON.parse(text) as string;
  const items = text.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean);
  return items.map((s) => tomlValue(s));
}

/** Reads the hosts.toml subset: root keys, `[host."<url>"]` tables, string/boolean/string-list values. */
export function readHostsToml(text: string, shown: string): HostsFile | { problem: string } {
  const out: HostsFile = { root: {}, hosts: [] };
  let table = out.root;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].trim();
    if (line === '' || line.startsWith('#')) continue;
    const at = `${shown}:${n + 1}`;
    const head = /^\[\s*host\.(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*\]\s*(#.*)?$/.exec(line);
    if (head) {
      const url = head[1] !== undefined ? (JSON.parse(`"${head[1]}"`) as string) : head[2];
      out.hosts.push({ url, keys: {} });
      table = out.hosts[out.hosts.length - 1].keys;
      continue;
    }
    if (line.startsWith('[')) return { problem: `${at}: table ${line} (e.g. [header]) has no place in registry_mirrors` };
    const kv = /^([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(.*)$/.exec(line);
    const v = kv ? VALUE.exec(kv[2].trim()) : null;
    if (!kv || !v) return { problem: `${at}: ${line} is not a string, boolean or list value kaas reads` };
    table[kv[1]] = tomlValue(v[1]);
  }
  return out;
}

const KNOWN = ['capabilities', 'override_path', 'skip_verify', 'ca'];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One hosts file as an entry, or the reason it cannot be one. `cas` maps a node path to PEM text. */
export function hostsEntry(registry: string, f: HostsFile, shown: string, cas: Map<string, string>): RegistryMirror | { problem: string } {
  const bad = [...Object.keys(f.root).filter((k) => k !== 'server' && !KNOWN.includes(k)), ...f.hosts.flatMap((h) => Object.keys(h.keys).filter((k) => !KNOWN.includes(k)))];
  if (bad.length) return { problem: `${shown}: ${[...new Set(bad)].join(', ')} ha${bad.length > 1 ? 've' : 's'} no place in registry_mirrors (it knows server, capabilities, override_path, skip_verify, ca)` };
  const first = f.hosts[0]?.keys ?? {};
  const differs = KNOWN.filter((k) => f.hosts.some((h) => !same(h.keys[k], first[k])));
  if (differs.length) return { problem: `${shown}: its hosts differ in ${differs.join(', ')}; registry_mirrors gives every endpoint of a registry the same options` };
  const e: RegistryMirror = { registry };
  if (f.hosts.length) e.endpoints = f.hosts.map((h) => h.url);
  if (typeof f.root.server === 'string') e.server = f.root.server;
  if (Array.isArray(first.capabilities) && !same(first.capabilities, ['pull', 'resolve'])) e.capabilities = first.capabilities as RegistryMirror['capabilities'];
  if (first.override_path === true) e.override_path = true;
  if (first.skip_verify === true || f.root.skip_verify === true) e.skip_verify = true;
  const caRef = first.ca ?? f.root.ca;
  if (caRef !== undefined) {
    const pem = typeof caRef === 'string' ? cas.get(caRef) : undefined;
    if (pem === undefined) return { problem: `${shown}: ca = ${JSON.stringify(caRef)} is none of the certs containerd_registry_files lists (SCS put them at /etc/containerd/certs/<file name>)` };
    e.ca = pem;
  }
  return e;
}

/**
 * Takes `containerd_registry_files` into the collector as registry_mirrors: every hosts file that
 * converts, and a note for each one that does not (unreadable, outside the subset) and each cert
 * no hosts file uses. `files` holds what import read for each path as written in the tfvars.
 */
export function importRegistryFiles(raw: RawValue, files: ReadonlyMap<string, RegistryFileRead>, c: ImportCollector): void {
  const v = raw.value as { hosts?: unknown; certs?: unknown } | null;
  const list = (x: unknown) => (Array.isArray(x) && x.every((s) => typeof s === 'string') ? (x as string[]) : undefined);
  const hosts = list(v?.hosts);
  const certs = list(v?.certs ?? []);
  if (!v || typeof v !== 'object' || !hosts || !certs) {
    c.drop(raw, 'unsupported', 'not a map {"hosts": [files], "certs": [files]}; add registry_mirrors by hand (see docs/guides/registry-mirrors.md)');
    return;
  }
  const note = (s: string) => c.notes.push(`${raw.where}: containerd_registry_files: ${s}`);
  const cas = new Map<string, string>();
  for (const p of certs) {
    const r = files.get(p);
    if (!r || 'error' in r) note(`cannot read cert ${p} (${r && 'error' in r ? r.error : 'not read'}); a registry that uses it is not imported`);
    else cas.set(`/etc/containerd/certs/${path.basename(p)}`, r.text);
  }
  const used = new Set<string>();
  const entries: RegistryMirror[] = [];
  for (const p of hosts) {
    const registry = path.basename(p);
    const r = files.get(p);
    if (!r || 'error' in r) {
      note(`cannot read ${p} (${r && 'error' in r ? r.error : 'not read'}): registry ${registry} is not imported; add it to registry_mirrors by hand`);
      continue;
    }
    const parsed = readHostsToml(r.text, r.shown);
    const e = 'problem' in parsed ? parsed : hostsEntry(registry, parsed, r.shown, cas);
    const problems = 'problem' in e ? [e.problem] : checkValue(declOf('registry_mirrors'), [e], 'registry_mirrors');
    if (problems.length) {
      note(`registry ${registry} is not imported: ${problems.join('; ')}; add it to registry_mirrors by hand`);
      continue;
    }
    const ok = e as RegistryMirror;
    if (ok.ca) for (const [k, pem] of cas) if (pem === ok.ca) used.add(k);
    entries.push(ok);
  }
  for (const k of cas.keys()) if (!used.has(k)) note(`cert ${path.basename(k)} is used by no hosts file; SCS only copied it to ${k}: add it as ca_file of the registry that needs it`);
  if (!entries.length) {
    c.drop(raw, 'unsupported', 'no hosts file could be converted (see the notes)');
    return;
  }
  c.set('registry_mirrors', entries, `containerd_registry_files (${raw.where}; ${entries.map((e) => e.registry).join(', ')})`);
}
