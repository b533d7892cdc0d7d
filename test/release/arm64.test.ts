import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT, tempDir, type CliRun } from '../support/cli.js';

/**
 * The release's arm64 executable (build/release/release.mjs: the official arm64 Node.js binary of
 * this Node's version, from the npm registry, with a blob without V8 code cache), built on an amd64
 * machine where no arm64 Node runs: it is an ELF executable for AArch64 with the blob injected, and
 * under qemu-user (test/release/qemu.sh installs it and arm64's C and C++ runtime) it runs the quick
 * start from a directory that holds nothing but the executable, printing byte for byte what this
 * machine's executable prints. On an arm64 machine it runs as it is, without qemu.
 */
const RELEASE = path.join(ROOT, 'dist', 'release');
const ARM64 = 'kaas-linux-arm64';
const HOST = `kaas-linux-${({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[process.arch]}`;
/** The fuse of Node's single executable support; postject turns its last byte from 0 to 1 when it injects. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** ELF e_machine of AArch64 (System V ABI, EM_AARCH64). */
const EM_AARCH64 = 183;

describe('the arm64 executable', () => {
  const dir = tempDir('kaas-release-arm64-');
  const home = path.join(dir, 'home');
  // PATH: an empty folder (no node, no kubectl): the quick start needs neither.
  const bin = path.join(dir, 'bin');
  const exe = path.join(dir, 'kaas');
  /** How this machine starts an arm64 program: qemu-user with arm64's runtime, or nothing on arm64. */
  let emulator: string[] = [];

  beforeAll(() => {
    for (const f of [ARM64, HOST]) {
      if (!existsSync(path.join(RELEASE, f))) throw new Error(`${path.join(RELEASE, f)} is missing: run npm run test:release (it builds the release first)`);
    }
    if (process.arch !== 'arm64') {
      const q = spawnSync('bash', [path.join(ROOT, 'test', 'release', 'qemu.sh')], { encoding: 'utf8', timeout: 600_000 });
      if (q.status !== 0) throw new Error(`test/release/qemu.sh failed (exit ${q.status ?? q.signal}):\n${q.stderr}`);
      const [qemu, sysroot] = q.stdout.trim().split('\n');
      emulator = [qemu, '-L', sysroot];
    }
    mkdirSync(home);
    mkdirSync(bin);
    copyFileSync(path.join(RELEASE, ARM64), exe);
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the arm64 executable (or, with `host`, this machine's executable from dist/release/) in the temp dir. */
  const run = (args: string[], host = false): CliRun => {
    const [cmd, ...pre] = host ? [path.join(RELEASE, HOST)] : [...emulator, exe];
    const r = spawnSync(cmd, [...pre, ...args], {
      cwd: dir, env: { PATH: bin, HOME: home, NO_COLOR: '1' }, encoding: 'utf8', timeout: 240_000, maxBuffer: 64 * 1024 * 1024,
    });
    if (r.error || r.signal) throw new Error(`kaas ${args.join(' ')} (arm64${host ? '' : emulator.length ? ', under qemu' : ''}): ${r.error?.message ?? r.signal}\n${r.stderr}`);
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('is an ELF executable for AArch64 with the single executable blob injected', () => {
    const file = readFileSync(exe);
    expect(file.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(file.readUInt16LE(18)).toBe(EM_AARCH64);
    expect(file.includes(`${SEA_FUSE}:1`)).toBe(true);
    // The blob's main script is the one of this machine's executable (build/release/sea.mjs's banner).
    expect(file.includes("var __kaasImportMetaUrl = require('node:url').pathToFileURL(process.execPath).href;")).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['bin', 'home', 'kaas']);
  });

  it("runs the quick start: kaas create-cluster demo --env example --dry-run, as this machine's executable does", () => {
    const args = ['create-cluster', 'demo', '--env', 'example', '--dry-run'];
    const r = run(args);
    expect(r.stderr).not.toMatch(/^error/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^(?=[\s\S]*kind: OpenStackCluster)(?=[\s\S]*kind: KubeadmControlPlane)(?=[\s\S]*openstack-cloud-controller-manager)/);
    const h = run(args, true);
    expect(r.stdout).toBe(h.stdout);
    expect(r.stderr).toBe(h.stderr);
  }, 300_000);

  it("kaas version -o json: this checkout, this Node.js version, a single-file executable, as this machine's executable says", () => {
    const r = run(['version', '-o', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { kaas: Record<string, unknown> };
    expect(report.kaas).toMatchObject({ node: process.version, executable: true });
    expect(r.stdout).toBe(run(['version', '-o', 'json'], true).stdout);
  }, 300_000);
});
