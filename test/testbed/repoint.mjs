// The Cluster API managers' conversion and admission webhooks around `clusterctl upgrade apply` (testbed.sh
// upgrade). On the testbed the managers are processes serving on 127.0.0.1 with the testbed CA, and the
// CRDs and webhook configurations say so by URL (manifests.mjs); a cluster made by `clusterctl init` names
// Services in the provider namespaces instead, with the CA injected by cert-manager.
//
//   node repoint.mjs services
//     Before the upgrade: every CRD whose conversion webhook is one of the Cluster API managers' URLs
//     (127.0.0.1:9443–9445) names that provider's Service instead, as `clusterctl init` leaves it.
//     clusterctl patches the new CRDs over the old ones with a JSON merge patch (components.go createObj,
//     client.Merge), which adds its Service reference and keeps a URL: "exactly one of url or service is
//     required". From here until the new managers run, conversion calls fail, as they do on a real
//     management cluster once clusterctl has scaled the old Pods down.
//   node repoint.mjs managers MANIFESTS_OUT_DIR PROVIDER_LABEL...
//     After the upgrade, the stand-in for cert-manager's CA injection and the Services' Pods: the live CRDs
//     clusterctl labelled cluster.x-k8s.io/provider=<label> get manifests.mjs's conversion clientConfig
//     (URL, testbed CA), and those providers' webhook configurations manifests.mjs's webhooks, by JSON merge
//     patches (the Service reference removed; everything else clusterctl wrote kept).
// kubectl on PATH, KUBECONFIG set.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const YAML = require('yaml');

/** Per provider label: its webhook port on the testbed (testbed.sh manager), namespace and name prefix (config/default namePrefix). */
const PROVIDERS = {
  'cluster-api': { port: 9443, namespace: 'capi-system', prefix: 'capi-' },
  'bootstrap-kubeadm': { port: 9444, namespace: 'capi-kubeadm-bootstrap-system', prefix: 'capi-kubeadm-bootstrap-' },
  'control-plane-kubeadm': { port: 9445, namespace: 'capi-kubeadm-control-plane-system', prefix: 'capi-kubeadm-control-plane-' },
};
const usage = () => { console.error('usage: node repoint.mjs services | managers MANIFESTS_OUT_DIR PROVIDER_LABEL...'); process.exit(2); };

function kubectl(args) {
  const r = spawnSync('kubectl', args, { encoding: 'utf8', maxBuffer: 512 << 20 });
  if (r.status !== 0) throw new Error(`kubectl ${args.slice(0, 3).join(' ')}: ${r.stderr.trim()}`);
  return r.stdout;
}
const patch = (kind, name, body) => kubectl(['patch', kind, name, '--type', 'merge', '-p', JSON.stringify(body)]);
const clientConfig = (crd) => crd.spec.conversion?.webhook?.clientConfig;

const [mode, outDir, ...labels] = process.argv.slice(2);
if (mode === 'services') {
  let n = 0;
  for (const crd of JSON.parse(kubectl(['get', 'crd', '-o', 'json'])).items) {
    const url = clientConfig(crd)?.url ?? '';
    const p = Object.values(PROVIDERS).find((x) => url === `https://127.0.0.1:${x.port}/convert`);
    if (!p) continue;
    const service = { name: `${p.prefix}webhook-service`, namespace: p.namespace, path: '/convert', port: 443 };
    patch('crd', crd.metadata.name, { spec: { conversion: { webhook: { clientConfig: { url: null, service } } } } });
    n++;
  }
  console.log(`[testbed] ${n} CRDs' conversion webhooks name the Cluster API providers' Services, as clusterctl init leaves them`);
} else if (mode === 'managers' && outDir && labels.length > 0) {
  for (const l of labels) if (!PROVIDERS[l]) { console.error(`repoint.mjs: ${l} is not one of ${Object.keys(PROVIDERS).join(', ')}`); process.exit(2); }
  const read = (f) => YAML.parseAllDocuments(fs.readFileSync(path.join(outDir, f), 'utf8')).map((d) => d.toJS()).filter(Boolean);
  // The providers' CRDs as clusterctl labelled them (manifests.mjs's copies carry only the contract labels).
  const live = new Set(kubectl(['get', 'crd', '-l', `cluster.x-k8s.io/provider in (${labels.join(',')})`, '-o', 'name'])
    .split('\n').filter(Boolean).map((n) => n.replace(/^[^/]*\//, '')));
  let crds = 0;
  for (const crd of read('crds.yaml')) {
    const cc = clientConfig(crd);
    if (!live.has(crd.metadata.name) || !cc) continue;
    patch('crd', crd.metadata.name, { spec: { conversion: { webhook: { clientConfig: { service: null, url: cc.url, caBundle: cc.caBundle } } } } });
    crds++;
  }
  // A webhook configuration's webhooks are one list: the merge patch replaces it whole with manifests.mjs's
  // (the same webhooks of the same module, with the testbed's clientConfig). The longest prefix decides
  // (capi- is a prefix of the kubeadm providers' too).
  const owner = (name) => Object.entries(PROVIDERS).filter(([, p]) => name.startsWith(p.prefix)).sort((a, b) => b[1].prefix.length - a[1].prefix.length)[0]?.[0];
  let hooks = 0;
  for (const cfg of read('webhooks.yaml')) {
    if (!labels.includes(owner(cfg.metadata.name))) continue;
    patch(cfg.kind.toLowerCase(), cfg.metadata.name, { webhooks: cfg.webhooks });
    hooks++;
  }
  console.log(`[testbed] ${crds} CRDs' conversion webhooks and ${hooks} webhook configurations of ${labels.join(', ')} point at the testbed's managers`);
} else usage();
