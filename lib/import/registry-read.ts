import { existsSync } from 'node:fs';
import path from 'node:path';
import { readTextCapped } from '../fs/read-capped.js';
import type { RegistryFileRead } from './registry.js';
import { readTfvars } from './tfvars.js';
import { displayPath } from '../settings/load.js';

/** A hosts.toml or a CA certificate is a few KiB; a larger file is not one. */
const MAX_REGISTRY_FILE_BYTES = 256 * 1024;

/**
 * Reads the files `containerd_registry_files` names in a tfvars file, for the pure import. SCS's
 * paths ("./files/containerd/docker.io") are relative to the terraform directory, the parent of
 * `environments/` where the tfvars live; they are looked for there, then beside the tfvars, then in
 * the current directory. A file found nowhere, or unreadable, is recorded with the reason (the
 * import notes it and goes on), never fatal.
 */
export function readRegistryFiles(tfvarsText: string, tfvarsAbs: string, cwd: string): Map<string, RegistryFileRead> {
  const out = new Map<string, RegistryFileRead>();
  const raw = readTfvars(tfvarsText, tfvarsAbs).raws.find((r) => r.name === 'containerd_registry_files');
  const v = raw?.value as { hosts?: unknown; certs?: unknown } | undefined;
  if (!v || typeof v !== 'object') return out;
  const dir = path.dirname(tfvarsAbs);
  const bases = [...new Set([path.dirname(dir), dir, cwd])];
  for (const p of [v.hosts, v.certs].flatMap((l) => (Array.isArray(l) ? l : [])).filter((x): x is string => typeof x === 'string')) {
    const expanded = p.replace(/^~(?=\/)/, process.env.HOME ?? '~');
    const abs = path.isAbsolute(expanded) ? expanded : bases.map((b) => path.resolve(b, expanded)).find((a) => existsSync(a));
    if (!abs || !existsSync(abs)) {
      out.set(p, { error: `not found ${path.isAbsolute(expanded) ? `at ${expanded}` : `under ${bases.map((b) => (b === cwd ? '.' : displayPath(b, cwd))).join(', ')}`}` });
      continue;
    }
    try {
      out.set(p, { text: readTextCapped(abs, { shown: p, maxBytes: MAX_REGISTRY_FILE_BYTES, expect: 'a hosts.toml or CA file is a few KiB' }), shown: displayPath(abs, cwd) });
    } catch (e) {
      out.set(p, { error: (e as Error).message });
    }
  }
  return out;
}
