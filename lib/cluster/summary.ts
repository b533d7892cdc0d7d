import { oneLine } from '../visible.js';
import { diffLines } from './live/reconcile.js';
import type { CreateClusterResult } from './create/create.js';
import type { DeleteClusterResult } from './delete/delete.js';

/** The human summary of create-cluster: what was created, time per step, how to reach the cluster. */
export function createSummary(r: CreateClusterResult): string {
  const lines: string[] = [];
  if (r.dryRun) {
    lines.push(`dry-run of cluster ${r.cluster} (Kubernetes ${r.kubernetesVersion}): nothing was changed`);
    if (r.files) lines.push('files written:', ...r.files.map((f) => `  ${f}`));
    if (r.live) lines.push(`on the management cluster (namespace ${r.live.namespace}):`, ...diffLines(r.live.objects).map((l) => `  ${l}`));
    lines.push(`add-ons: ${r.addons.join(', ') || 'none'}`, `ingress: ${r.ingress}`, `gateway: ${r.gateway}`);
    return lines.join('\n');
  }
  lines.push(r.waited === false
    ? `cluster ${r.cluster} (Kubernetes ${r.kubernetesVersion}): objects applied, not waited for (--no-wait)`
    : `cluster ${r.cluster} (Kubernetes ${r.kubernetesVersion}) is ready`);
  const total = (r.steps ?? []).reduce((a, s) => a + s.seconds, 0);
  const width = Math.max(...(r.steps ?? []).map((s) => s.step.length), 4);
  for (const s of r.steps ?? []) lines.push(`  ${s.step.padEnd(width)}  ${s.seconds.toFixed(1).padStart(7)}s  ${s.detail}`);
  lines.push(`  ${'total'.padEnd(width)}  ${total.toFixed(1).padStart(7)}s`);
  if (r.waited === false) {
    lines.push('', 'follow it with:', `  clusterctl describe cluster ${r.cluster}`, `then run kaas create-cluster ${r.cluster} again (without --no-wait) for the kubeconfig, add-ons and edge`);
    return lines.join('\n');
  }
  lines.push('', 'reach it with:', `  kubectl --kubeconfig ${r.kubeconfig} get nodes`);
  if (r.contexts?.length) lines.push(`  kubectl --context ${r.contexts[0]} get nodes`);
  return lines.join('\n');
}

/** The human summary of delete-cluster. */
export function deleteSummary(r: DeleteClusterResult): string {
  const head = r.dryRun ? `dry-run: delete-cluster ${r.cluster} would delete:` : `cluster ${r.cluster}: ${r.actions.length ? 'deleted' : 'nothing to delete'}`;
  // One line per action: a name from the cloud holding a newline cannot fake a line of its own.
  return [head, ...r.actions.map((a) => `  ${oneLine(a)}`)].join('\n');
}

/** `--list-variables` for humans: each template file and the variables it reads. */
export function variablesText(vars: { file: string; variables: string[] }[]): string {
  return vars.map((v) => `${v.file}:\n${v.variables.map((x) => `  ${x}`).join('\n')}`).join('\n');
}
