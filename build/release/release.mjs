// `npm run release` (after `npm run build`): the files of a release in dist/release/.
//
//   kaas-linux-amd64    the single-file executables: a Node.js binary of this Node's version with the
//   kaas-linux-arm64    CLI and its files injected as a single executable application
//                       (build/release/sea.mjs); they run on hosts without Node. The one for the CPU
//                       of the Node that builds is this Node (process.execPath) with a blob that holds
//                       V8's code cache (faster start). The other is the official Node.js binary of
//                       the same version for that CPU (build/release/node-binary.mjs: from the npm
//                       registry, checked, cached) with a blob without code cache: code cache is
//                       only for the CPU that made it (an x64 cache in the arm64 binary crashes it at
//                       start, SIGSEGV), the rest of the blob is the same for every CPU.
//   kaas-<version>.tgz  the `npm pack` tarball (installs offline: `npm install -g ./kaas-<version>.tgz`).
//   SHA256SUMS          `sha256sum -c SHA256SUMS` checks all three.
//
// The blob is injected with postject (devDependency; KAAS_POSTJECT names another postject executable).
// Intermediate files go to dist/release-work/; the other CPU's Node.js tarball stays in dist/release-cache/.
// test/release/ runs both executables (the other CPU's under qemu-user: test/release/qemu.sh).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../generate.mjs';
import { nodeBinary } from './node-binary.mjs';
import { assetFiles, bundleMainScript } from './sea.mjs';

const OUT = path.join(ROOT, 'dist', 'release');
const WORK = path.join(ROOT, 'dist', 'release-work');
/** The fuse Node's single executable support looks for (Node 20's docs, "Injecting the preparation blob"). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** Node's process.arch → the name operators know from kubectl and clusterctl downloads. */
const ARCH = { x64: 'amd64', arm64: 'arm64' };

function run(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`release: ${what} failed (${cmd} ${args.join(' ')}, exit ${r.status ?? r.error?.message}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** The postject executable: KAAS_POSTJECT, else the devDependency's. */
function postject() {
  const bin = process.env.KAAS_POSTJECT ?? path.join(ROOT, 'node_modules', '.bin', 'postject');
  if (!existsSync(bin)) throw new Error(`release: ${bin} not found; run npm ci (postject is a devDependency) or set KAAS_POSTJECT`);
  return bin;
}

/** Writes the SEA blob of `main` (with V8's code cache for this CPU when `codeCache`); returns its path. */
function seaBlob(main, codeCache) {
  const blob = path.join(WORK, codeCache ? 'sea-prep-code-cache.blob' : 'sea-prep.blob');
  const config = path.join(WORK, codeCache ? 'sea-config-code-cache.json' : 'sea-config.json');
  writeFileSync(config, `${JSON.stringify({
    main, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: codeCache, assets: assetFiles({ codeCache }),
  }, null, 2)}\n`);
  run(process.execPath, ['--experimental-sea-config', config], 'writing the SEA blob');
  return blob;
}

/** Copies the Node.js binary `node` to OUT/`name` and injects `blob`; returns `name`. */
function inject(node, blob, name) {
  const file = path.join(OUT, name);
  copyFileSync(node, file);
  chmodSync(file, 0o755);
  run(postject(), [file, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], `injecting the SEA blob into ${name}`);
  return name;
}

/** Builds the single-file executables into OUT, this CPU's first; returns their file names. */
async function executables() {
  if (process.platform !== 'linux' || !ARCH[process.arch]) throw new Error(`release: builds linux executables only (this is ${process.platform}/${process.arch})`);
  const main = path.join(WORK, 'kaas.cjs');
  await bundleMainScript(main);
  const others = Object.keys(ARCH).filter((a) => a !== process.arch);
  const portable = seaBlob(main, false);
  return [
    inject(process.execPath, seaBlob(main, true), `kaas-linux-${ARCH[process.arch]}`),
    ...others.map((arch) => inject(nodeBinary(arch, WORK), portable, `kaas-linux-${ARCH[arch]}`)),
  ];
}

/** `npm pack` into OUT (the build in dist/ is current: prepare is skipped); returns the tarball's name. */
function tarball() {
  const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', OUT], 'npm pack');
  return JSON.parse(out)[0].filename;
}

/** SHA256SUMS in sha256sum's format, for every file of `names`. */
function checksums(names) {
  const lines = names.sort().map((n) => `${createHash('sha256').update(readFileSync(path.join(OUT, n))).digest('hex')}  ${n}\n`);
  writeFileSync(path.join(OUT, 'SHA256SUMS'), lines.join(''));
}

if (!existsSync(path.join(ROOT, 'dist', 'bundle', 'kaas.js'))) throw new Error('release: dist/bundle is not built (npm run build)');
for (const dir of [OUT, WORK]) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
const names = [...await executables(), tarball()];
checksums(names);
rmSync(WORK, { recursive: true, force: true });
process.stdout.write(`dist/release/: ${readdirSync(OUT).sort().join(', ')}\n`);
