#!/usr/bin/env node
// Extracts the openAPIV3Schema of the CRD versions kaas renders (CAPI v1beta2 kinds, CAPO
// v1beta1 kinds) from the upstream CRD files into templates/crds/<group>_<kind>.<version>.json,
// without `description` fields (they are most of the bytes and do not affect validation).
//   node scripts/extract-crd-schemas.mjs <dir-with-upstream-crds>... 
// Upstream: kubernetes-sigs/cluster-api@v1.12.11 config/crd/bases (+ bootstrap, controlplane),
// kubernetes-sigs/cluster-api-provider-openstack@v0.14.7 config/crd/bases.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const WANTED = {
  Cluster: 'v1beta2', MachineDeployment: 'v1beta2', KubeadmControlPlane: 'v1beta2', KubeadmConfigTemplate: 'v1beta2',
  OpenStackCluster: 'v1beta1', OpenStackMachineTemplate: 'v1beta1',
};
const strip = (v) => {
  if (Array.isArray(v)) return v.map(strip);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) if (!(k === 'description' && typeof x === 'string')) o[k] = strip(x);
    return o;
  }
  return v;
};
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'templates', 'crds');
for (const dir of process.argv.slice(2)) {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml') && n.includes('_'))) {
    const crd = YAML.parse(readFileSync(path.join(dir, f), 'utf8'));
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    const kind = crd.spec.names.kind;
    const version = WANTED[kind];
    if (!version) continue;
    const v = crd.spec.versions.find((x) => x.name === version);
    const file = path.join(out, `${crd.spec.group}_${kind}.${version}.json`);
    writeFileSync(file, JSON.stringify({ source: `${f} (${version})`, schema: strip(v.schema.openAPIV3Schema) }) + '\n');
    console.log(file);
  }
}
