import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { renderIngress } from '../../../lib/ingress/render.js';
import { findBundled } from '../../../lib/plan/ingress-versions.js';
import { scsOverlayDir, scsSedArgs } from '../../support/scs-overlay.js';
import { AMPHORA, settings, ingressPlan } from './fixtures.js';

/** What the old path produced: `kubectl kustomize <overlay>` piped through the SCS sed. */
function scsBuild(overlay: string, version: string, nodeCidr: string): unknown[] {
  const dir = scsOverlayDir(version);
  try {
    const k = spawnSync('kubectl', ['kustomize', `${dir}/${overlay}`], { encoding: 'utf8' });
    if (k.status !== 0) throw new Error(`kubectl kustomize failed: ${k.stderr}`);
    const s = spawnSync('sed', scsSedArgs(nodeCidr), { input: k.stdout, encoding: 'utf8' });
    return parseAllDocuments(s.stdout).map((d) => d.toJS()).filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const byKey = (objs: unknown[]) =>
  Object.fromEntries((objs as { kind: string; metadata: { namespace?: string; name: string } }[]).map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));

describe('kaas renders what the SCS overlays produced (kubectl kustomize + sed), where the SCS was right', () => {
  it.each(['v1.9.6', 'v1.14.5', 'v1.15.1'])('amphora + proxy equals nginx-proxy for %s', async (version) => {
    const ours = await renderIngress({ ...ingressPlan(settings(), AMPHORA), version: findBundled(version)! });
    expect(byKey(ours.objects)).toEqual(byKey(scsBuild('nginx-proxy', version, '10.8.0.0/20')));
  });

  it.each(['v1.9.6', 'v1.15.1'])('amphora without proxy equals nginx-monitor for %s', async (version) => {
    const ours = await renderIngress({ ...ingressPlan(settings({ nginx_use_proxy: false }), AMPHORA), version: findBundled(version)! });
    expect(byKey(ours.objects)).toEqual(byKey(scsBuild('nginx-monitor', version, '10.8.0.0/20')));
  });
});
