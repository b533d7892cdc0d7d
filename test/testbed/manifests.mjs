// Turns the upstream CRD and webhook YAML (copied from the module cache by build.sh) into what a
// hand-run management cluster needs, as controller-runtime's envtest and CAPI's internal/test/envtest
// do it, and as the providers' kustomizations would:
//   - CRDs get the contract labels of their kustomization (`labels: - pairs:`) and, where the
//     kustomization lists a webhook_in_<plural> patch, a conversion webhook at
//     https://127.0.0.1:<port>/convert with the testbed CA as caBundle;
//   - webhook configurations are renamed per provider (upstream names them all
//     mutating-/validating-webhook-configuration) and point at https://127.0.0.1:<port><path>.
//
//   node manifests.mjs MANIFEST_DIR CA_FILE OUT_DIR
// writes OUT_DIR/crds.yaml and OUT_DIR/webhooks.yaml. The ports must match testbed.sh's managers.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const YAML = require('yaml');

const [manifestDir, caFile, outDir] = process.argv.slice(2);
if (!manifestDir || !caFile || !outDir) {
  console.error('usage: node manifests.mjs MANIFEST_DIR CA_FILE OUT_DIR');
  process.exit(2);
}
const caBundle = Buffer.from(fs.readFileSync(caFile)).toString('base64');

// Cluster API v1.14 moved the core provider's config/ (and main package) from the module root to core/
// (sigs.k8s.io/cluster-api v1.14.2 core/config/crd); v1.12 has it at the root. The release set decides.
const capiCore = fs.existsSync(path.join(manifestDir, 'cluster-api/core/config/crd/kustomization.yaml')) ? 'cluster-api/core' : 'cluster-api';

/** The providers: where their kustomizations live, the webhook port of their manager, a name prefix. */
const PROVIDERS = [
  { name: 'capi', crd: `${capiCore}/config/crd`, webhook: `${capiCore}/config/webhook`, port: 9443 },
  { name: 'capi-kubeadm-bootstrap', crd: 'cluster-api/bootstrap/kubeadm/config/crd', webhook: 'cluster-api/bootstrap/kubeadm/config/webhook', port: 9444 },
  { name: 'capi-kubeadm-control-plane', crd: 'cluster-api/controlplane/kubeadm/config/crd', webhook: 'cluster-api/controlplane/kubeadm/config/webhook', port: 9445 },
  { name: 'capo', crd: 'cluster-api-provider-openstack/config/crd', webhook: 'cluster-api-provider-openstack/config/webhook', port: 9446 },
  // CAPO watches ORC images (controllers/openstackserver_controller.go); ORC's manager runs too.
  { name: 'orc', crd: 'openstack-resource-controller/config/crd' },
  // clusterctl's provider inventory (what `clusterctl init` records), read by clusterctl and kaas.
  { name: 'clusterctl', crd: 'cluster-api/cmd/clusterctl/config/crd' },
];

const readDocs = (file) => YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS()).filter(Boolean);

const crds = [];
const webhooks = [];
for (const p of PROVIDERS) {
  const kdir = path.join(manifestDir, p.crd);
  const kust = readDocs(path.join(kdir, 'kustomization.yaml'))[0];
  const labels = Object.assign({}, ...(kust.labels ?? []).map((l) => l.pairs ?? {}), kust.commonLabels ?? {});
  // webhook_in_<plural>.yaml patches name the CRDs that get a conversion webhook.
  const converted = new Set();
  for (const patch of kust.patches ?? kust.patchesStrategicMerge ?? []) {
    const file = typeof patch === 'string' ? patch : patch.path;
    if (!file || !/webhook_in_/.test(file)) continue;
    for (const d of readDocs(path.join(kdir, file))) if (d.spec?.conversion?.strategy === 'Webhook') converted.add(d.metadata.name);
  }
  for (const res of p.only ?? kust.resources ?? []) {
    for (const crd of readDocs(path.join(kdir, res))) {
      crd.metadata.labels = { ...(crd.metadata.labels ?? {}), ...labels };
      if (converted.has(crd.metadata.name)) {
        crd.spec.conversion = {
          strategy: 'Webhook',
          webhook: { conversionReviewVersions: ['v1', 'v1beta1'], clientConfig: { url: `https://127.0.0.1:${p.port}/convert`, caBundle } },
        };
      }
      crds.push(crd);
    }
  }
  if (!p.webhook) continue;
  for (const cfg of readDocs(path.join(manifestDir, p.webhook, 'manifests.yaml'))) {
    cfg.metadata.name = `${p.name}-${cfg.metadata.name}`;
    for (const w of cfg.webhooks ?? []) {
      const svcPath = w.clientConfig?.service?.path;
      if (!svcPath) throw new Error(`${p.name}: webhook ${w.name} has no service path`);
      w.clientConfig = { url: `https://127.0.0.1:${p.port}${svcPath}`, caBundle };
    }
    webhooks.push(cfg);
  }
}

fs.mkdirSync(outDir, { recursive: true });
const dump = (docs) => docs.map((d) => YAML.stringify(d, { lineWidth: 0 })).join('---\n');
fs.writeFileSync(path.join(outDir, 'crds.yaml'), dump(crds));
fs.writeFileSync(path.join(outDir, 'webhooks.yaml'), dump(webhooks));
console.log(`[testbed] ${crds.length} CRDs (${crds.filter((c) => c.spec.conversion?.strategy === 'Webhook').length} with conversion webhooks), ${webhooks.length} webhook configurations`);
