import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHECK_NAMESPACE } from '../../lib/checklb/check-lb.js';
import { RECORDED, type FakeCall, type FakeTools } from '../fakes/fake-tools.js';
import { cleanEnv, KAAS, ROOT } from './cli.js';

/**
 * The kubectl calls of a `kaas check-lb` run against the scripted fake, in order: get nodes, get
 * namespace (a previous run's?), apply, rollout status, the Services' status, the namespace delete.
 * Shared by the check-lb unit tests and the robustness corpus's hostile-answer cases.
 */

/** `get service <name>` answering a recorded Service renamed, with an LB address or none yet. */
export function serviceAnswer(name: string, ip?: string): NonNullable<FakeCall['response']> {
  const s = JSON.parse(readFileSync(`${RECORDED}/get-service-lb-ip.json`, 'utf8'));
  s.metadata = { name, namespace: CHECK_NAMESPACE };
  s.status = ip ? { loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } } : { loadBalancer: {} };
  return { stdout: JSON.stringify(s) };
}

/** `get namespace kaas-check-lb`: absent, or still being deleted by a previous run. */
export function getNs(kc: string, terminating = false): FakeCall {
  return { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'namespace', CHECK_NAMESPACE, '-o', 'json'],
    response: terminating ? { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: CHECK_NAMESPACE, deletionTimestamp: '2026-11-27T20:58:00Z' }, status: { phase: 'Terminating' } }) }
      : { exitCode: 1, stderr: `Error from server (NotFound): namespaces "${CHECK_NAMESPACE}" not found\n` } };
}

/** `get nodes -o json`, answered from the recorded node list unless `response` says otherwise. */
export function getNodes(kc: string, response: FakeCall['response'] = { stdoutFile: `${RECORDED}/get-nodes.json` }): FakeCall {
  return { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'nodes', '-o', 'json'], response };
}

/** The server-side apply of check-lb's namespace, Services and Deployment. */
export function applyCall(kc: string, response: FakeCall['response'] = { stdout: 'namespace/kaas-check-lb serverside-applied\n' }): FakeCall {
  return { tool: 'kubectl', argv: ['--kubeconfig', kc, 'apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'],
    stdinContains: ['name: kaas-check-lb', 'externalTrafficPolicy: Cluster', 'externalTrafficPolicy: Local', '- demo-md-0-a1b2c', 'agnhost'], response };
}

/** `rollout status deployment/echo` (the default 300 s timeout). */
export function rolloutCall(kc: string, response?: FakeCall['response']): FakeCall {
  return { tool: 'kubectl', argv: ['--kubeconfig', kc, 'rollout', 'status', 'deployment/echo', '--namespace', CHECK_NAMESPACE, '--timeout=300s'], response };
}

/** A whole run up to the Services: get nodes, `pre` (the namespace look-up), apply, rollout, then `tail`. */
export function checkLbCalls(kc: string, tail: FakeCall[], pre: FakeCall[] = [getNs(kc)]): FakeCall[] {
  return [getNodes(kc), ...pre, applyCall(kc), rolloutCall(kc), ...tail];
}

/** `get service <name>` in the check's namespace, answered `response` (default: the Service with `ip` or no address). */
export function getSvc(kc: string, name: string, ip?: string, response: FakeCall['response'] = serviceAnswer(name, ip)): FakeCall {
  return { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'service', name, '--namespace', CHECK_NAMESPACE, '-o', 'json'], response };
}

/** The cleanup: `delete namespace kaas-check-lb --ignore-not-found --wait=false`. */
export function delNs(kc: string, response?: FakeCall['response']): FakeCall {
  return { tool: 'kubectl', argv: ['--kubeconfig', kc, 'delete', 'namespace', CHECK_NAMESPACE, '--ignore-not-found', '--wait=false'], response };
}

/** Whether a recorded call is check-lb's namespace delete. */
export function isNamespaceDelete(argv: string[]): boolean {
  return argv.includes('delete') && argv.includes('namespace') && argv.includes(CHECK_NAMESPACE);
}

/** The built kaas running `check-lb demo` against the fake (env example, amphora plan): its stderr so far and how it ended. */
export function spawnCheckLb(kc: string, fake: FakeTools): { child: ChildProcess; stderr: () => string; exited: Promise<[number | null, NodeJS.Signals | null]> } {
  const child = spawn(process.execPath, [KAAS, 'check-lb', 'demo', '--env', 'example', '--kubeconfig', kc, '--set', 'use_ovn_lb_provider=false', '--settings-dir', path.join(ROOT, 'settings')], { cwd: ROOT, env: cleanEnv(fake.env) });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('exit', (c, s) => r([c, s])));
  return { child, stderr: () => stderr, exited };
}

/** Waits (up to 20 s) until the fake has seen `n` calls. */
export async function callsSeen(fake: FakeTools, n: number): Promise<void> {
  for (let i = 0; i < 200 && fake.calls().length < n; i++) await new Promise((r) => setTimeout(r, 100));
}
