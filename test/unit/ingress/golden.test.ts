import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { renderIngress } from '../../../lib/ingress/render.js';
import { BUNDLED_INGRESS_VERSIONS } from '../../../lib/plan/ingress-versions.js';
import type { IngressVariant } from '../../../lib/plan/ingress.js';
import { AMPHORA, OVN, settings, ingressPlan } from './fixtures.js';
import { REFERENCE_DIR } from '../../support/reference.js';

/**
 * The rendered ingress manifests, compared with the verbatim upstream manifests in
 * ../shared/reference (kubernetes/ingress-nginx deploy/static/provider/cloud/deploy.yaml per
 * release) plus the changes each variant is documented to make, written out here by hand — never
 * with golden files written by the renderer under test. Compared semantically (parsed objects).
 */
const REFERENCE = path.join(REFERENCE_DIR, 'ingress-nginx');

type Obj = { kind: string; metadata: { name: string; annotations?: Record<string, string> }; data?: Record<string, string> | null; spec?: Record<string, unknown> };
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as Obj).filter((o) => o !== null);
const upstream = (file: string) => docs(readFileSync(path.join(REFERENCE, file), 'utf8'));

const MONITOR = { 'loadbalancer.openstack.org/enable-health-monitor': 'true' };
const PROXY = { 'loadbalancer.openstack.org/proxy-protocol': 'true' };

/** What each variant changes in the upstream objects (ingress-nginx-facts.md, the SCS overlays). */
const CHANGES: Record<IngressVariant, (o: Obj) => Obj> = {
  'amphora-proxy': (o) =>
    o.kind === 'Service' && o.metadata.name === 'ingress-nginx-controller'
      ? { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, ...MONITOR, ...PROXY } } }
      : o.kind === 'ConfigMap' && o.metadata.name === 'ingress-nginx-controller'
        ? { ...o, data: { ...(o.data ?? {}), 'use-proxy-protocol': 'true', 'proxy-real-ip-cidr': '10.8.0.0/20' } }
        : o,
  'amphora-monitor': (o) =>
    o.kind === 'Service' && o.metadata.name === 'ingress-nginx-controller'
      ? { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, ...MONITOR } } }
      : o,
  'amphora-plain': (o) => o,
  ovn: (o) => o,
  // create-monitor false: no monitor, so externalTrafficPolicy: Cluster (etp-cluster patch).
  'amphora-cluster': (o) => etpCluster(o),
  'amphora-proxy-cluster': (o) =>
    o.kind === 'Service' && o.metadata.name === 'ingress-nginx-controller'
      ? etpCluster({ ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, ...PROXY } } })
      : o.kind === 'ConfigMap' && o.metadata.name === 'ingress-nginx-controller'
        ? { ...o, data: { ...(o.data ?? {}), 'use-proxy-protocol': 'true', 'proxy-real-ip-cidr': '10.8.0.0/20' } }
        : o,
};

function etpCluster(o: Obj): Obj {
  return o.kind === 'Service' && o.metadata.name === 'ingress-nginx-controller' ? { ...o, spec: { ...o.spec, externalTrafficPolicy: 'Cluster' } } : o;
}

const VARIANTS: Record<IngressVariant, () => ReturnType<typeof ingressPlan>> = {
  'amphora-proxy': () => ingressPlan(settings(), AMPHORA),
  'amphora-monitor': () => ingressPlan(settings({ nginx_use_proxy: false }), AMPHORA),
  'amphora-plain': () => ingressPlan(settings({ nginx_use_proxy: false, occm_loadbalancer: { 'create-monitor': true } }), AMPHORA),
  ovn: () => ingressPlan(settings(), OVN),
  'amphora-cluster': () => ingressPlan(settings({ nginx_use_proxy: false, occm_loadbalancer: { 'create-monitor': false } }), AMPHORA),
  'amphora-proxy-cluster': () => ingressPlan(settings({ occm_loadbalancer: { 'create-monitor': 'false' } }), AMPHORA),
};

const cases = (Object.keys(VARIANTS) as IngressVariant[]).flatMap((variant) => BUNDLED_INGRESS_VERSIONS.map((v) => [variant, v] as const));

describe('rendered ingress manifests = upstream + the variant\'s documented changes', () => {
  it.each(cases)('%s with ingress-nginx %s', async (variant, version) => {
    const plan = { ...VARIANTS[variant](), version };
    expect(plan.variant).toBe(variant);
    const { yaml } = await renderIngress(plan, 'all');
    expect(docs(yaml)).toEqual(upstream(version.file).map(CHANGES[variant]));
  });

  it.each(BUNDLED_INGRESS_VERSIONS.map((v) => [v.version, v.file]))('the bundled %s manifest is the verbatim upstream file', (_v, file) => {
    expect(readFileSync(path.resolve('templates/ingress/upstream', file), 'utf8')).toBe(readFileSync(path.join(REFERENCE, file), 'utf8'));
  });
});
