import { decided, type Decision } from './decision.js';

/**
 * Which Kubernetes version a run renders when the cluster already exists. A floating
 * `kubernetes_version: vX.Y.x` resolves to the newest patch image the cloud offers, which moves
 * whenever the operator uploads one; re-running create-cluster for another reason (worker_count)
 * must not turn into a rolling upgrade of every machine. So a live cluster keeps the version its
 * control plane has (KubeadmControlPlane spec.version) while that is of the setting's minor; it
 * moves when the setting names a newer version (a full vX.Y.Z, or a newer minor), or with
 * `--upgrade` to the newest patch of the setting's minor. Pure: the live version is read elsewhere.
 */

/** Inputs of the pin decision. */
export interface VersionPinInput {
  /** The kubernetes_version setting as written ("v1.34.x" or "v1.34.2"). */
  setting: string;
  /** What the setting resolved to against the cloud's images ("v1.34.3"). */
  resolved: string;
  /** The live KubeadmControlPlane spec.version; undefined when the cluster does not exist yet. */
  live?: string;
  /** `--upgrade`: a floating setting moves to its newest patch. */
  upgrade: boolean;
}

const parts = (v: string) => /^v?(\d+)\.(\d+)\.(\d+|x)$/.exec(v);

/** The version to render, with the reason (see the module comment). */
export function pinKubernetesVersion(i: VersionPinInput): Decision<string> {
  const s = parts(i.setting);
  if (!i.live || !s || s[3] !== 'x') return decided(i.resolved);
  if (i.live === i.resolved) return decided(i.resolved, [`kubernetes_version ${i.setting}: the cluster runs ${i.live}, the newest ${s[1]}.${s[2]} patch image`]);
  const l = parts(i.live);
  if (!l || l[1] !== s[1] || l[2] !== s[2]) return decided(i.resolved);
  if (i.upgrade) return decided(i.resolved, [`kubernetes_version ${i.setting} with --upgrade: ${i.live} → ${i.resolved}, the newest patch image`]);
  return decided(i.live, [`kubernetes_version ${i.setting}: the cluster keeps ${i.live} (the newest patch image is ${i.resolved}; run with --upgrade, or set kubernetes_version: ${i.resolved}, to move to it)`]);
}
