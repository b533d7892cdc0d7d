import { mkdtempSync, readFileSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { createProcessRunner, type ProcessRunner } from '../../lib/exec/runner.js';
import os from 'node:os';
import path from 'node:path';

/** One expected invocation of a faked tool and what it answers. Paths are relative to the repo root. */
export interface FakeCall {
  tool: string;
  /** The exact argv after the tool name. */
  argv: string[];
  /** Exact stdin expected (inline or from a file). */
  stdin?: string;
  stdinFile?: string;
  /** Substrings stdin must contain (when the exact text is not the point). */
  stdinContains?: string[];
  response?: {
    stdout?: string;
    stdoutFile?: string;
    stderr?: string;
    stderrFile?: string;
    exitCode?: number;
  };
}

/** One recorded invocation (from the log file the fake writes). */
export interface RecordedCall {
  index: number;
  tool: string;
  argv: string[];
  stdin: string;
  /** Set when the call did not match the scenario; the fake exited 97. */
  unexpected?: string;
}

/** A prepared scenario: the env to run the code under test with, and what happened. */
export interface FakeTools {
  /** Absolute directory holding the fake executables (kubectl, clusterctl). */
  binDir: string;
  /** Absolute path of the fake kubectl (for code that takes the binary as a parameter). */
  bin(tool: string): string;
  /** Environment for a child process: fakes first on PATH, scenario and log paths set. */
  env: Record<string, string>;
  /** Every call the fakes saw, in order. */
  calls(): RecordedCall[];
  /** Throws when a call was unexpected or an expected call was never made. */
  assertDone(): void;
  cleanup(): void;
}

/** The folder of recorded real-tool outputs (relative to the repo root). */
export const RECORDED = 'test/fakes/recorded/kubectl-v1.32';

/**
 * Writes a scenario (expected calls in order) to a fresh temp dir and returns the environment
 * that puts the fakes first on PATH. Tests run from the repo root (npm test), so `test/fakes/bin`
 * is resolved against process.cwd().
 */
export function fakeTools(calls: FakeCall[]): FakeTools {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kaas-fake-'));
  const scenario = path.join(dir, 'scenario.json');
  const log = path.join(dir, 'calls.jsonl');
  writeFileSync(scenario, JSON.stringify({ baseDir: process.cwd(), calls }, null, 2));
  const binDir = path.resolve(process.cwd(), 'test/fakes/bin');
  const read = (): RecordedCall[] =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedCall) : [];
  return {
    binDir,
    bin: (tool) => path.join(binDir, tool),
    env: { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, KAAS_FAKE_SCENARIO: scenario, KAAS_FAKE_LOG: log },
    calls: read,
    assertDone() {
      const got = read();
      const bad = got.find((c) => c.unexpected);
      if (bad) throw new Error(`fake ${bad.tool}: call #${bad.index + 1} ${JSON.stringify(bad.argv)} was unexpected: ${bad.unexpected}`);
      if (got.length < calls.length) {
        const missing = calls.slice(got.length).map((c) => `${c.tool} ${JSON.stringify(c.argv)}`);
        throw new Error(`expected calls never made:\n  ${missing.join('\n  ')}`);
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A ProcessRunner whose children see the fakes' environment (PATH, scenario, log), for in-process
 * tests of adapters; the real execa runner underneath, so argv and stdin travel exactly as in production.
 */
export function fakeRunner(fake: Pick<FakeTools, "env">, base: ProcessRunner = createProcessRunner()): ProcessRunner {
  return { run: (cmd, args, opts = {}) => base.run(cmd, args, { ...opts, env: { ...fake.env, ...opts.env } }) };
}

/** One object in the management-cluster fake's state. */
export type FakeObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; generation?: number }; spec?: Record<string, unknown>; status?: Record<string, unknown>; [k: string]: unknown };

/** The management-cluster fake (mgmt-cluster.mjs): a stateful cluster behind the fake kubectl/clusterctl. */
export interface FakeManagementCluster {
  binDir: string;
  env: Record<string, string>;
  /** Every call, in order (argv, stdin, exit code). */
  calls(): (RecordedCall & { exitCode: number })[];
  /** Calls that change something: apply (not --dry-run), delete, create. */
  mutations(): (RecordedCall & { exitCode: number })[];
  /** The objects of the management cluster, by `Kind/namespace/name`. */
  objects(): Record<string, FakeObject>;
  /** Puts objects on the management cluster as if another tool had created them (e.g. the SCS scripts). */
  seed(objects: FakeObject[]): void;
  /** false: the controllers make no progress (machines never come up), to test the waits. */
  controllers(on: boolean): void;
  cleanup(): void;
}

/**
 * A management cluster kept in a JSON file: kubectl calls with `--kubeconfig <mgmtKubeconfig>`
 * (and clusterctl) act on it; any other kubeconfig is a workload cluster that accepts add-ons.
 */
export function fakeManagementCluster(mgmtKubeconfig: string, opts: { apiVersionsFile?: string } = {}): FakeManagementCluster {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kaas-mgmt-'));
  const state = path.join(dir, 'state.json');
  const log = path.join(dir, 'calls.jsonl');
  writeFileSync(state, JSON.stringify({ mgmt: mgmtKubeconfig, workloadReachable: true, apiVersionsFile: opts.apiVersionsFile, clusters: { mgmt: { objects: {}, applied: {} } } }));
  const binDir = path.resolve(process.cwd(), 'test/fakes/bin');
  const read = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedCall & { exitCode: number }) : []);
  const load = () => JSON.parse(readFileSync(state, 'utf8')) as { clusters: { mgmt: { objects: Record<string, FakeObject> } } };
  return {
    binDir,
    env: { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, KAAS_FAKE_STATE: state, KAAS_FAKE_LOG: log },
    calls: read,
    mutations: () => read().filter((c) => (c.argv.includes('apply') && !c.argv.some((a) => a.startsWith('--dry-run'))) || c.argv.includes('delete') || c.argv.includes('create')),
    objects: () => load().clusters.mgmt.objects,
    seed(objects) {
      const s = load();
      for (const o of objects) {
        const ns = o.kind === 'Namespace' ? '' : o.metadata.namespace ?? 'default';
        s.clusters.mgmt.objects[`${o.kind}/${ns}/${o.metadata.name}`] = { ...o, metadata: { generation: 1, ...o.metadata } };
      }
      writeFileSync(state, JSON.stringify(s));
    },
    controllers(on) {
      writeFileSync(state, JSON.stringify({ ...JSON.parse(readFileSync(state, 'utf8')), controllers: on }));
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
