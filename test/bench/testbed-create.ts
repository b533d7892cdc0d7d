/**
 * Run inside a testbed's network namespace by testbed.bench.ts: one create-cluster to the furthest state
 * the testbed reaches (the control-plane Machine Provisioned: a Nova server, providerID set), by kaas and
 * by the plain Cluster API path on the same testbed:
 *
 *   kaas:  kaas create-cluster NAME --no-wait                                  then the same waits
 *   plain: kubectl create namespace; clusterctl generate cluster NAME --from CAPO's v1beta1 template
 *          | kubectl apply --server-side -f -                                 then the same waits
 *
 * The waits (both paths): `kubectl wait` for the OpenStackCluster's status.ready and the control-plane
 * Machine's phase Provisioned. Each path runs twice, in the order kaas, plain, plain, kaas (ABBA), so that
 * neither pays alone for the testbed's first cluster (cold caches in CAPO, ORC and the peer) or for a drift
 * in load; the JSON gives each path's mean and its single runs. Counted per path: wall time (total, and the client part before the waits),
 * kubectl/clusterctl invocations (shims first on PATH) and Kubernetes API requests (a counting TLS proxy
 * in front of the management cluster's API server). Prints one JSON line.
 *
 *   node dist/test/bench/testbed-create.js TESTBED_DIR CAPO_TEMPLATE
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseEnvFile } from '../testbed/env.js';

const dir = path.resolve(process.argv[2] ?? '');
const env = parseEnvFile(fs.readFileSync(path.join(dir, 'testbed.env'), 'utf8'));
const peer = parseEnvFile(fs.readFileSync(path.join(dir, 'peer', 'peer.env'), 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-bench-tb-'));
// Also when a step below throws (the end removes it too, before its process.exit).
process.on('exit', () => fs.rmSync(work, { recursive: true, force: true }));
const ROOT = process.cwd();
const KAAS = path.join(ROOT, 'dist', 'bundle', 'kaas.js');
// CAPO's own template for v1beta1 objects (testbed.bench.ts finds it in the Go module cache).
const TEMPLATE = path.resolve(process.argv[3] ?? '');

// ------------------------------------------------------------ the counting proxy
const kc = fs.readFileSync(env.MGMT_KUBECONFIG, 'utf8');
const field = (k: string) => Buffer.from(new RegExp(`${k}: (\\S+)`).exec(kc)![1], 'base64');
const upstream = { ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data') };
let requests = 0;
const proxy = https.createServer({ cert: fs.readFileSync(path.join(dir, 'pki', 'serving.crt')), key: fs.readFileSync(path.join(dir, 'pki', 'serving.key')) }, (req, res) => {
  requests++;
  const up = https.request({ host: '127.0.0.1', port: 6443, method: req.method, path: req.url, headers: req.headers, ...upstream }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
});
await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
const port = (proxy.address() as AddressInfo).port;
const proxyKc = path.join(work, 'mgmt-proxy.kubeconfig');
fs.writeFileSync(proxyKc, kc.replace('https://127.0.0.1:6443', `https://127.0.0.1:${port}`), { mode: 0o600 });

// ------------------------------------------------------------ invocation shims
const shims = path.join(work, 'bin');
const calls = path.join(work, 'calls.log');
fs.mkdirSync(shims);
for (const tool of ['kubectl', 'clusterctl']) {
  const real = spawnSync('bash', ['-c', `PATH=${env.PATH} command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
  fs.writeFileSync(path.join(shims, tool), `#!/bin/sh\necho "${tool} $*" >> ${calls}\nexec ${real} "$@"\n`, { mode: 0o755 });
}
const PATH = `${shims}:${env.PATH}`;
const baseEnv = { PATH, HOME: work, NO_COLOR: '1', OS_CLIENT_CONFIG_FILE: env.OS_CLIENT_CONFIG_FILE, CLUSTERCTL_DISABLE_VERSIONCHECK: 'true' };
const count = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []);

/** Runs a command (asynchronously: the proxy lives in this process's event loop). */
function sh(cmd: string, args: string[], o: { input?: string; env?: NodeJS.ProcessEnv; ok?: boolean } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, args, { env: o.env ?? baseEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => (stdout += d));
    c.stderr.on('data', (d) => (stderr += d));
    c.on('error', reject);
    c.on('close', (status) => {
      if (o.ok !== false && status !== 0) reject(new Error(`${cmd} ${args.join(' ')}: exit ${status}: ${stderr.slice(-800)}`));
      else resolve({ status, stdout, stderr });
    });
    c.stdin.end(o.input ?? '');
  });
}
const k = (args: string[], o: { input?: string; ok?: boolean } = {}) => sh('kubectl', ['--kubeconfig', proxyKc, ...args], o);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The waits both paths share: the cluster's network and API LB, then the control-plane Machine's server. */
async function waits(name: string): Promise<void> {
  for (;;) {
    const r = await k(['wait', '-n', name, `openstackclusters.v1beta1.infrastructure.cluster.x-k8s.io/${name}`, '--for=jsonpath={.status.ready}=true', '--timeout=900s'], { ok: false });
    if (r.status === 0) break;
    if (!/NotFound|not found/.test(r.stderr)) throw new Error(`wait OpenStackCluster: ${r.stderr}`);
    await sleep(2000);
  }
  for (;;) {
    const r = await k(['wait', '-n', name, 'machines.v1beta2.cluster.x-k8s.io', '-l', `cluster.x-k8s.io/control-plane,cluster.x-k8s.io/cluster-name=${name}`, '--for=jsonpath={.status.phase}=Provisioned', '--timeout=900s'], { ok: false });
    if (r.status === 0) break;
    if (!/no matching resources/.test(r.stderr)) throw new Error(`wait Machine: ${r.stderr}`);
    await sleep(2000);
  }
}

interface PathResult { totalMs: number; clientMs: number; invocations: number; apiRequests: number; byTool: Record<string, number> }
/** A path's runs: their mean (invocations and requests too) and each run's total, in run order. */
interface PathSummary extends PathResult { runsMs: number[] }

function summary(runs: PathResult[]): PathSummary {
  const mean = (f: (r: PathResult) => number) => Math.round(runs.reduce((a, r) => a + f(r), 0) / runs.length);
  return { totalMs: mean((r) => r.totalMs), clientMs: mean((r) => r.clientMs), invocations: mean((r) => r.invocations), apiRequests: mean((r) => r.apiRequests), byTool: runs[0].byTool, runsMs: runs.map((r) => r.totalMs) };
}

async function measure(name: string, create: () => Promise<void>): Promise<PathResult> {
  fs.rmSync(calls, { force: true });
  requests = 0;
  const t0 = Date.now();
  await create();
  const clientMs = Date.now() - t0;
  await waits(name);
  const totalMs = Date.now() - t0;
  const lines = count();
  const byTool: Record<string, number> = {};
  for (const l of lines) byTool[l.split(' ')[0]] = (byTool[l.split(' ')[0]] ?? 0) + 1;
  return { totalMs, clientMs, invocations: lines.length, apiRequests: requests, byTool };
}

// ------------------------------------------------------------ the two paths
const createArgs = (name: string) => ['create-cluster', name, '--new-cluster', '--settings-dir', path.join(dir, 'settings'), '--env', 'testbed', '--kubeconfig', proxyKc];
const kaasRun = (name: string, kaasEnv: NodeJS.ProcessEnv = baseEnv) => measureAsync(name, async () => {
  await sh(process.execPath, [KAAS, ...createArgs(name), '--no-wait'], { env: kaasEnv });
});

// The plain path: CAPO's own v1beta1 template, the same cloud credential, image, flavor and network.
const cloudsYaml = fs.readFileSync(env.OS_CLIENT_CONFIG_FILE, 'utf8');
const appcred = /peer-demo-appcred:[\s\S]*$/.exec(cloudsYaml)![0];
const onlyAppcred = `clouds:\n  ${appcred.replace(/\n/g, '\n')}`;
const sshKey = path.join(work, 'id_ed25519');
spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', sshKey]);
await novaKeypair('kaas-bench', fs.readFileSync(`${sshKey}.pub`, 'utf8').trim());
const plainEnv = {
  ...baseEnv,
  OPENSTACK_CLOUD: 'peer-demo-appcred', OPENSTACK_CLOUD_YAML_B64: Buffer.from(onlyAppcred).toString('base64'), OPENSTACK_CLOUD_CACERT_B64: Buffer.from('\n').toString('base64'),
  OPENSTACK_CONTROL_PLANE_MACHINE_FLAVOR: env.TESTBED_FLAVOR, OPENSTACK_NODE_MACHINE_FLAVOR: env.TESTBED_FLAVOR, OPENSTACK_IMAGE_NAME: env.TESTBED_IMAGE,
  OPENSTACK_DNS_NAMESERVERS: '172.24.4.1', OPENSTACK_EXTERNAL_NETWORK_ID: peer.OS_PEER_PUBLIC_NETWORK_ID, OPENSTACK_FAILURE_DOMAIN: 'nova', OPENSTACK_SSH_KEY_NAME: 'kaas-bench',
};
const plainRun = (name: string) => measureAsync(name, async () => {
  await k(['create', 'namespace', name]);
  const gen = await sh('clusterctl', ['generate', 'cluster', name, '--from', TEMPLATE, '--target-namespace', name, '--kubernetes-version', env.TESTBED_K8S_VERSION, '--control-plane-machine-count', '1', '--worker-machine-count', '1', '--kubeconfig', proxyKc], { env: plainEnv });
  await k(['apply', '--server-side', '-f', '-'], { input: gen.stdout });
});

// ABBA: kaas first and last, the plain path in between.
const kaasRuns: PathResult[] = [];
const plainRuns: PathResult[] = [];
kaasRuns.push(await kaasRun('bkaas1'));
plainRuns.push(await plainRun('bplain1'));
plainRuns.push(await plainRun('bplain2'));
kaasRuns.push(await kaasRun('bkaas2'));
const kaasResult = summary(kaasRuns);
const plainResult = summary(plainRuns);

// Not in the comparison: kaas once more with clouds.yaml `cache: {auth: true}` (lib/openstack/auth-cache.ts),
// after a dry run of the same create kept the token and showed it to every service the create asks:
// what an operator's next kaas command within the token's lifetime gets.
const keptClouds = path.join(work, 'clouds-cache-auth.yaml');
fs.writeFileSync(keptClouds, `cache:\n  auth: true\n${cloudsYaml}`, { mode: 0o600 });
const keptEnv = { ...baseEnv, OS_CLIENT_CONFIG_FILE: keptClouds, XDG_CACHE_HOME: path.join(work, 'cache') };
await sh(process.execPath, [KAAS, ...createArgs('bkaas3'), '--dry-run'], { env: keptEnv });
const keptResult = summary([await kaasRun('bkaas3', keptEnv)]);

async function measureAsync(name: string, create: () => Promise<void>): Promise<PathResult> {
  try {
    return await measure(name, create);
  } finally {
    await cleanup(name);
  }
}

async function cleanup(name: string): Promise<void> {
  // Not timed: delete the cluster (CAPO removes its cloud resources) and its namespace.
  await sh('kubectl', ['--kubeconfig', env.MGMT_KUBECONFIG, 'delete', '-n', name, 'clusters.v1beta2.cluster.x-k8s.io', name, '--ignore-not-found', '--timeout=900s'], { ok: false });
  await sh('kubectl', ['--kubeconfig', env.MGMT_KUBECONFIG, 'delete', 'namespace', name, '--ignore-not-found', '--timeout=300s'], { ok: false });
}

async function novaKeypair(name: string, publicKey: string): Promise<void> {
  const auth = { auth: { identity: { methods: ['password'], password: { user: { name: 'demo', domain: { id: 'default' }, password: peer.OS_PEER_DEMO_PASSWORD } } }, scope: { project: { name: 'demo', domain: { id: 'default' } } } } };
  const t = await fetch(`${peer.OS_PEER_AUTH_URL}/auth/tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(auth) });
  const token = t.headers.get('x-subject-token')!;
  const h = { 'X-Auth-Token': token, 'Content-Type': 'application/json' };
  await fetch(`${peer.OS_PEER_NOVA_URL}/os-keypairs/${name}`, { method: 'DELETE', headers: h });
  const r = await fetch(`${peer.OS_PEER_NOVA_URL}/os-keypairs`, { method: 'POST', headers: h, body: JSON.stringify({ keypair: { name, public_key: publicKey } }) });
  if (r.status >= 300) throw new Error(`nova keypair: HTTP ${r.status} ${await r.text()}`);
}

// kubectl's watches leave keep-alive connections open: close them, or the process never ends.
proxy.closeAllConnections();
proxy.close();
fs.rmSync(work, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ kaas: kaasResult, plain: plainResult, kaasTokenKept: keptResult })}\n`, () => process.exit(0));
