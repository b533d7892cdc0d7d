import { UsageError } from '../errors.js';
import type { ProcessRunner } from '../exec/runner.js';
import type { ApplyIngressOptions } from '../ingress/apply-ingress.js';
import { createIngressCloud, type IngressCloud } from '../ingress/cloud.js';
import { edgeKubeTarget } from '../ingress/kubeconfig.js';
import { decideIngress } from '../ingress/decide.js';
import { occmLoadBalancerName, type LoadBalancer, type Member } from '../openstack/octavia.js';
import { clusterNames } from '../plan/cluster-model.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { providerFacts } from '../plan/providers.js';
import { stringifyDocuments } from '../render/documents.js';
import { loadSettings } from '../settings/load.js';
import { nodesOf } from '../checks/fetch-cluster.js';
import { evaluate, monitorSettled, type LbCheck, type Probe, type ServiceRun } from './evaluate.js';
import { checkLbManifests, pickNodes, SERVICES } from './manifests.js';
import { httpProbe } from './probe.js';
import { guardNamespace } from './cleanup.js';
import { thrownLine } from '../visible.js';
import { lbAddress } from '../kube/lb-address.js';

/**
 * `kaas check-lb <cluster>`: the SCS KaaS load-balancer conformance test as a command. Deploys the
 * echo workload on a subset of the nodes with one ETP Cluster and one ETP Local Service, waits for
 * their LBs, sends requests from this host, judges (evaluate.ts), and always removes the namespace
 * again — also when interrupted (SIGINT/SIGTERM/SIGHUP: the terminal closed), before exiting 130/143/129.
 */

/** The namespace check-lb works in (fixed: a re-run after a crash converges and cleans it up). */
export const CHECK_NAMESPACE = 'kaas-check-lb';

/** Flags of check-lb; settings, kubeconfig and capabilities are found as apply-ingress finds them. */
export interface CheckLbOptions extends Pick<ApplyIngressOptions, 'cluster' | 'settingsDir' | 'env' | 'environ' | 'cwd' | 'home' | 'sets' | 'capabilitiesFile' | 'kubeconfig' | 'context'> {
  /** Service port (default 80). */
  port?: number;
  /** Requests per Service that must all answer (default 50, as the SCS script). */
  tries?: number;
  /** Warm-up tries until the first answer (default 30). */
  warmup?: number;
  addressSec?: number;
  rolloutSec?: number;
  requestMs?: number;
  pollMs?: number;
  /** How long to wait for the Local LB's monitor to take the pod-less nodes out before its requests (default 180). */
  settleSec?: number;
  /** How long the delete of the namespace may take at the end (default 30 000 ms). */
  cleanupMs?: number;
}

export interface CheckLbDeps {
  logger: Logger;
  runner: ProcessRunner;
  kubectlFor?: (t: KubeTarget) => Kubectl;
  cloud?: IngressCloud;
  probe?: (url: string, timeoutMs: number) => Promise<Probe>;
  sleep?: (ms: number) => Promise<void>;
  /** Where SIGINT/SIGTERM/SIGHUP arrive, and how the process ends after cleaning up on one. */
  signals?: Pick<NodeJS.Process, 'on' | 'removeListener'>;
  exit?: (code: number) => void;
}

async function waitAddress(k: Kubectl, name: string, o: Required<Pick<CheckLbOptions, 'addressSec' | 'pollMs'>>, logger: Logger, sleep: (ms: number) => Promise<void>): Promise<string> {
  const step = logger.step(`waiting for the load balancer of Service ${name}`);
  const deadline = Date.now() + o.addressSec * 1000;
  for (;;) {
    const address = lbAddress(await k.getJson('service', name, { namespace: CHECK_NAMESPACE }), { namespace: CHECK_NAMESPACE, name });
    if (address !== undefined) {
      step.succeed(`${name}: ${address}`);
      return address;
    }
    if (Date.now() >= deadline) {
      step.fail();
      throw new UsageError(`Service ${CHECK_NAMESPACE}/${name} got no load-balancer address within ${o.addressSec}s`, { hint: `kubectl describe service -n ${CHECK_NAMESPACE} ${name}; kaas doctor` });
    }
    await sleep(o.pollMs);
  }
}

/**
 * A previous run removes the namespace without waiting (its load balancers go with it, in OCCM's time). A
 * run started meanwhile must not apply into it: kubectl is refused the Deployment, and the old Services —
 * still answering — would be judged instead of this run's. So wait, bounded, until it is gone.
 */
async function waitPreviousRunGone(k: Kubectl, o: Required<Pick<CheckLbOptions, 'addressSec' | 'pollMs'>>, logger: Logger, sleep: (ms: number) => Promise<void>): Promise<void> {
  type Ns = { metadata?: { deletionTimestamp?: string } };
  let ns = await k.getJson<Ns>('namespace', CHECK_NAMESPACE);
  if (!ns?.metadata?.deletionTimestamp) return;
  const step = logger.step(`waiting for namespace ${CHECK_NAMESPACE} of a previous check to be removed (with its load balancers)`);
  const deadline = Date.now() + o.addressSec * 1000;
  while (ns?.metadata?.deletionTimestamp) {
    if (Date.now() >= deadline) {
      step.fail();
      throw new UsageError(`namespace ${CHECK_NAMESPACE} of a previous check-lb run is still being deleted after ${o.addressSec}s; nothing was applied`, {
        hint: `kubectl get namespace ${CHECK_NAMESPACE} -o yaml (its finalizers and conditions say what holds it; OCCM must delete the Services' load balancers), then run check-lb again`,
      });
    }
    await sleep(o.pollMs);
    ns = await k.getJson<Ns>('namespace', CHECK_NAMESPACE);
  }
  step.succeed();
}

async function exercise(address: string, port: number, o: { warmup: number; tries: number; requestMs: number }, probe: NonNullable<CheckLbDeps['probe']>, sleep: (ms: number) => Promise<void>): Promise<ServiceRun> {
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}/`;
  const warmup: Probe[] = [];
  for (let i = 0; i < o.warmup; i++) {
    const p = await probe(url, o.requestMs * 2);
    warmup.push(p);
    if (p.ok) break;
    await sleep(1000);
  }
  const tries: Probe[] = [];
  if (warmup.some((p) => p.ok)) for (let i = 0; i < o.tries; i++) tries.push(await probe(url, o.requestMs));
  return { address, warmup, tries };
}

/** Runs check-lb; exit code 1 when a check failed. */
export async function runCheckLb(o: CheckLbOptions, deps: CheckLbDeps): Promise<{ data: Record<string, unknown>; text: string; exitCode: 0 | 1 }> {
  const { logger } = deps;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const probe = deps.probe ?? httpProbe;
  const port = o.port ?? 80;
  const t = { addressSec: o.addressSec ?? 600, rolloutSec: o.rolloutSec ?? 300, pollMs: o.pollMs ?? 5000, warmup: o.warmup ?? 30, tries: o.tries ?? 50, requestMs: o.requestMs ?? 2000, settleSec: o.settleSec ?? 180 };
  const settings = loadSettings({ settingsDir: o.settingsDir, env: o.env, cluster: o.cluster, environ: o.environ, sets: o.sets, cwd: o.cwd });
  const s = settings.values;
  const cloud = deps.cloud ?? createIngressCloud({ environ: o.environ, cwd: o.cwd, home: o.home, cloudSetting: s.cloud, mutating: false, logger });
  const { lb } = await decideIngress(s, { capabilitiesFile: o.capabilitiesFile, cloud: () => cloud });
  const target = await edgeKubeTarget(o, s, deps);
  const k = kubectlFactory(deps)(target);

  type NodeList = { items?: { metadata: { name: string; labels?: Record<string, string> }; status?: { addresses?: { type: string; address: string }[] } }[] };
  const list = (await k.getJson<NodeList>('nodes')) ?? {};
  const ips = new Map(nodesOf(list).map((n) => [n.name, n.internalIp]));
  const facts = (list.items ?? []).map((n) => {
    const l = n.metadata.labels ?? {};
    return { name: n.metadata.name, internalIp: ips.get(n.metadata.name), excluded: 'node-role.kubernetes.io/control-plane' in l || 'node.kubernetes.io/exclude-from-external-load-balancers' in l };
  });
  const chosen = pickNodes(facts);
  if (!chosen.length) throw new UsageError(`cluster ${o.cluster} has no node that load balancers send to (all are control-plane or excluded)`, { hint: 'kubectl get nodes --show-labels' });
  logger.info(`echo pods on ${chosen.join(', ')} (of ${facts.filter((f) => !f.excluded).length} LB nodes)`);

  await waitPreviousRunGone(k, t, logger, sleep);

  const guard = guardNamespace(k, CHECK_NAMESPACE, { logger, signals: deps.signals ?? process, exit: deps.exit ?? ((code: number) => process.exit(code)), timeoutMs: o.cleanupMs });
  try {
    await k.apply(stringifyDocuments(checkLbManifests(CHECK_NAMESPACE, chosen, port)), { forceConflicts: true });
    await k.rolloutStatus('deployment/echo', { namespace: CHECK_NAMESPACE }, t.rolloutSec);
    const addr = { cluster: await waitAddress(k, SERVICES.cluster, t, logger, sleep), local: await waitAddress(k, SERVICES.local, t, logger, sleep) };
    const byName = new Map(facts.map((f) => [f.name, f.internalIp]));
    const podNodeIps = chosen.map((n) => byName.get(n)).filter((x): x is string => Boolean(x));
    const localName = occmLoadBalancerName(clusterNames(s.namespace, o.cluster).occmCluster, CHECK_NAMESPACE, SERVICES.local);
    const readLocal = async (): Promise<{ members?: Member[]; lb?: LoadBalancer; problem?: string }> => {
      try {
        if (!cloud.loadBalancerSnapshot) throw new Error('this cloud adapter cannot read Octavia');
        const snap = await cloud.loadBalancerSnapshot(localName);
        if (snap.loadBalancers.length !== 1) throw new Error(`${snap.loadBalancers.length} Octavia load balancers named ${localName}`);
        return { members: Object.values(snap.members ?? {}).flat(), lb: snap.loadBalancers[0] };
      } catch (e) {
        return { problem: thrownLine(e) };
      }
    };
    const step = logger.step(`requests from this host: ${t.tries} per Service`);
    const cluster = await exercise(addr.cluster, port, t, probe, sleep);
    // A new LB's monitor needs its window (OCCM's TCP/HTTP defaults: about 20 s) before it takes the
    // pod-less nodes out; requests sent before would fail on a healthy cloud too. Wait (bounded) until the
    // members say so; if they never do, local-podless-nodes reports it.
    let seen = await readLocal();
    for (const end = Date.now() + t.settleSec * 1000; seen.members && !monitorSettled(seen.members, podNodeIps) && Date.now() < end; seen = await readLocal()) await sleep(t.pollMs);
    const local = await exercise(addr.local, port, t, probe, sleep);
    const host = addr.local.includes(':') ? `[${addr.local}]` : addr.local;
    const localClientIp = local.tries.length ? await probe(`http://${host}:${port}/clientip`, t.requestMs) : undefined;
    step.succeed();
    const after = await readLocal();
    const checks: LbCheck[] = evaluate({
      cluster, local, localClientIp, clientIpKept: providerFacts(lb.provider).keepsClientIp, nodeCidr: s.node_cidr,
      nodeIps: facts.map((f) => f.internalIp).filter((x): x is string => Boolean(x)),
      podNodeIps, localMembers: after.members, membersProblem: after.problem,
      provider: after.lb?.provider ?? lb.provider, localViaFloatingIp: after.lb?.vip_address ? addr.local !== after.lb.vip_address : undefined,
    });
    const failed = checks.filter((c) => c.result === 'fail');
    const text = [
      `kaas check-lb ${o.cluster}: provider ${lb.provider}, echo pods on ${chosen.join(', ')}`,
      ...checks.map((c) => `  ${c.result === 'pass' ? 'PASS' : c.result === 'fail' ? 'FAIL' : 'SKIP'} ${c.check.padEnd(20)} ${c.detail}`),
      failed.length ? `${failed.length} check(s) failed` : 'all checks passed',
    ].join('\n');
    return { data: { cluster: o.cluster, provider: lb.provider, nodes: chosen, addresses: addr, checks }, text, exitCode: failed.length ? 1 : 0 };
  } finally {
    // Listeners stay until the namespace is gone, so that a signal during the cleanup is still ours.
    await guard.cleanup();
    guard.release();
  }
}
