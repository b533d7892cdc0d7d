import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The offline kubectl check: `kubectl kustomize` (the real kubectl v1.32 on PATH) builds the
 * manifest without a server, refusing malformed objects and duplicate kind/namespace/name IDs.
 * Returns the objects kubectl emitted.
 */
export function kustomizeBuild(manifest: string): unknown[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kaas-kustomize-'));
  try {
    writeFileSync(path.join(dir, 'all.yaml'), manifest);
    writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources: [all.yaml]\n');
    const out = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
    return parseAllDocuments(out).map((d) => d.toJS()).filter((o) => o !== null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
