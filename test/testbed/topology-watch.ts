/**
 * Watches what the real topology controller writes during a ClusterClass upgrade (review 2026-11-27 n4):
 * `kubectl get -w` streams every version of an object the apiserver stores, so a state that lasted only
 * between two reconciles is seen too (a poll could miss it). One watch per kind, each printing one line
 * per stored version (jsonpath, fields split by `|`: kubectl's watch output turns tabs into aligning
 * spaces), kept in order; the machine templates' images are collected from their
 * own watch (the topology controller deletes a replaced clone, so it may be gone when the test reads).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { testbed } from './support.js';

/** One stored version of a watched object: the fields the test compares. */
export interface Seen { name: string; rv: string; version: string; ref: string; paused: string; annotations: string }

/** The fields printed per kind (`ref`: the machine template the object points at). */
const FIELDS: Record<string, string> = {
  kcp: '{.spec.version}{"|"}{.spec.machineTemplate.spec.infrastructureRef.name}{"|"}{"|"}',
  md: '{.spec.template.spec.version}{"|"}{.spec.template.spec.infrastructureRef.name}{"|"}{"|"}',
  cluster: '{.spec.topology.version}{"|"}{.spec.topology.classRef.name}{"|"}{.spec.paused}{"|"}{.metadata.annotations.cluster\\.x-k8s\\.io/paused}',
  osmt: '{.spec.template.spec.image.filter.name}{"|"}{"|"}{"|"}',
};

/** A running watch of several kinds in one namespace. */
export interface TopologyWatch {
  /** Every stored version seen so far, per kind key, in the order the apiserver sent them. */
  seen: Record<string, Seen[]>;
  /** The image of each machine template ever seen (name → image filter name). */
  images(): Map<string, string>;
  /** Ends the watches (idempotent). */
  stop(): void;
}

/** Starts `kubectl get RES -n NS -w` for each key of `resources` (kcp, md, cluster, osmt → full resource names). */
export function watchTopology(ns: string, resources: Record<keyof typeof FIELDS, string>): TopologyWatch {
  const tb = testbed();
  const seen: Record<string, Seen[]> = {};
  const children: ChildProcess[] = [];
  for (const [key, res] of Object.entries(resources)) {
    seen[key] = [];
    const template = `jsonpath={.metadata.name}{"|"}{.metadata.resourceVersion}{"|"}${FIELDS[key]}{"\\n"}`;
    const child = spawn('kubectl', ['--kubeconfig', tb.mgmtKubeconfig, 'get', res, '-n', ns, '-w', '-o', template],
      { env: { ...process.env, PATH: tb.path }, stdio: ['ignore', 'pipe', 'pipe'] });
    let rest = '';
    child.stdout!.on('data', (d) => {
      const lines = (rest + String(d)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines.filter(Boolean)) {
        const [name, rv, version, ref, paused, annotations] = line.split('|');
        seen[key].push({ name, rv, version, ref, paused: paused ?? '', annotations: annotations ?? '' });
      }
    });
    children.push(child);
  }
  return {
    seen,
    images: () => new Map(seen.osmt?.map((o) => [o.name, o.version]) ?? []),
    stop: () => { for (const c of children) if (c.exitCode === null) c.kill('SIGTERM'); },
  };
}

/**
 * The stored versions in which an object pointed at a template with one release's image while its
 * version said the other's (new image at the old version, or the reverse): what an upgrade applied in
 * two halves lets the topology controller write. Templates whose image was never seen count as unknown
 * (listed too, so a test does not pass on a template it could not read).
 */
export function mixedStates(states: Seen[], images: Map<string, string>, old: { version: string; image: string }, next: { version: string; image: string }): string[] {
  const out: string[] = [];
  for (const s of states) {
    const image = images.get(s.ref);
    const line = `${s.name}@${s.rv}: version ${s.version}, template ${s.ref} (image ${image ?? 'unknown'})`;
    if (image === undefined || (s.version === next.version && image === old.image) || (s.version === old.version && image === next.image)) out.push(line);
  }
  return out;
}
