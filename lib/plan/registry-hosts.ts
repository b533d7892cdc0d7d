import path from 'node:path';
import type { RegistryMirror } from '../settings/types.js';
import { decided, refused, type Decision, type Refusal } from './decision.js';

/**
 * The files that give every node the `registry_mirrors` setting: one containerd host config per
 * registry, `/etc/containerd/certs.d/<registry>/hosts.toml`, and its CA beside it. The format is
 * containerd's (containerd/containerd docs/hosts.md, v1.7 and v2.x): root-level `server`, `ca` and
 * `skip_verify` apply to the registry's own endpoint, each `[host."<url>"]` section is a mirror
 * tried in order before it. containerd reads the directory only when its config.toml sets
 * `config_path = "/etc/containerd/certs.d"`, which kubernetes-sigs/image-builder images do from
 * v0.1.31 (images/capi/ansible/roles/containerd/templates/etc/containerd/config.toml); the SCS
 * cluster-template appended the same line itself. hosts.toml is read at every pull, so the files
 * take effect without restarting containerd (docs/hosts.md). A `ca` is added to the system roots, not put in
 * their place (core/remotes/docker/config/hosts.go, ConfigureHosts), so a CA at the root level does
 * not break the registry's own public certificate.
 */

/** A cloud-init file of a KubeadmConfig(Template) / KubeadmControlPlane `files:` list. */
export interface NodeFile {
  path: string;
  owner: string;
  permissions: string;
  content: string;
}

/** Where containerd looks for a registry's hosts.toml (`host:port` is a valid directory name on Linux). */
export const CERTS_D = '/etc/containerd/certs.d';

/** TOML basic string: JSON's escapes are a subset of TOML's (the values are URLs and paths). */
const q = (s: string) => JSON.stringify(s);

/** The hosts.toml text of one entry; `caPath` is where its CA lands on the node (if any). */
export function hostsToml(m: RegistryMirror, caPath?: string): string {
  const lines = [`# written by kaas from the registry_mirrors setting (${m.registry}); containerd docs/hosts.md`];
  if (m.server) lines.push(`server = ${q(m.server)}`);
  if (caPath) lines.push(`ca = ${q(caPath)}`);
  if (m.skip_verify) lines.push('skip_verify = true');
  for (const url of m.endpoints ?? []) {
    lines.push('', `[host.${q(url)}]`, `  capabilities = [${(m.capabilities ?? ['pull', 'resolve']).map(q).join(', ')}]`);
    if (m.override_path) lines.push('  override_path = true');
    if (m.skip_verify) lines.push('  skip_verify = true');
    if (caPath) lines.push(`  ca = ${q(caPath)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The node files of every entry, in the setting's order. `readCa` returns the PEM text of a
 * `ca_file` (resolved against `baseDir`) or throws; an unreadable file is a refusal naming the
 * entry and the path, so that nothing is created with a CA missing.
 */
export function registryNodeFiles(mirrors: RegistryMirror[], baseDir: string, readCa: (abs: string) => string, where = 'registry_mirrors'): Decision<NodeFile[]> {
  const files: NodeFile[] = [];
  const refusals: Refusal[] = [];
  const reasons: string[] = [];
  mirrors.forEach((m, i) => {
    const dir = `${CERTS_D}/${m.registry}`;
    let ca = m.ca;
    if (m.ca_file !== undefined) {
      const abs = path.resolve(baseDir, m.ca_file);
      try {
        ca = readCa(abs);
      } catch (e) {
        refusals.push({ message: `${where}[${i}].ca_file ${m.ca_file}: ${(e as Error).message}`, hint: `put the CA's PEM file there (relative paths are relative to ${baseDir}), or paste it as ca` });
        return;
      }
      if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(ca)) {
        refusals.push({ message: `${where}[${i}].ca_file: ${abs} holds no PEM certificate`, hint: 'give the file of the CA certificate (-----BEGIN CERTIFICATE----- …), not a key or a DER file' });
        return;
      }
    }
    const caPath = ca ? `${dir}/ca.crt` : undefined;
    files.push({ path: `${dir}/hosts.toml`, owner: 'root:root', permissions: '0644', content: hostsToml(m, caPath) });
    if (ca && caPath) files.push({ path: caPath, owner: 'root:root', permissions: '0644', content: ca.endsWith('\n') ? ca : `${ca}\n` });
    const via = (m.endpoints ?? []).length ? `through ${(m.endpoints ?? []).join(', ')}` : m.server ? `from ${m.server}` : 'directly';
    reasons.push(`registry ${m.registry}: pulled ${via}${m.server && (m.endpoints ?? []).length ? `, then ${m.server}` : ''}${ca ? ', with its CA' : ''}${m.skip_verify ? ', certificates NOT verified (skip_verify)' : ''} (${dir}/hosts.toml on every node)`);
  });
  return refusals.length ? refused(refusals, reasons) : decided(files, reasons);
}
