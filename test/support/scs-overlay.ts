import { cpSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp.js';

/** The SCS kustomize overlays (verbatim copies) in the shared reference folder, if present. */
export const SCS_OVERLAYS = path.resolve(process.cwd(), 'test/fixtures/scs/nginx-ingress');

/**
 * Lays out the SCS nginx-ingress overlays as apply_nginx_ingress.sh did: base/ plus
 * nginx-ingress-controller.yaml = the upstream manifest of `version` (the script symlinked it).
 * Returns the directory holding base/, nginx-monitor/, nginx-proxy/.
 */
export function scsOverlayDir(version: string): string {
  const dir = tempDir('kaas-scs-');
  cpSync(SCS_OVERLAYS, dir, { recursive: true });
  copyFileSync(path.resolve(process.cwd(), `templates/ingress/upstream/deploy-cloud-${version}.yaml`), path.join(dir, 'base', 'nginx-ingress-controller.yaml'));
  return dir;
}

/** The sed the SCS script ran on the kustomize output: proxy-real-ip-cidr := NODE_CIDR. */
export function scsSedArgs(nodeCidr: string): string[] {
  return [`s@proxy-real-ip-cidr:.*$@proxy-real-ip-cidr: "${nodeCidr}"@`];
}
