import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KAAS, type Bench } from './measure.js';

/**
 * Issue 23: "50 concurrent `kaas detect` runs each took ~30 s on 2 cores." Fifty `kaas detect` at once
 * against a local scripted cloud (Keystone token + catalog, Octavia versions and providers, Neutron
 * external networks; 5 ms per answer), timed until the last one ends, against fifty of the floor
 * script (test/bench/detect-floor.ts: the same four requests from a bare Node script) at once.
 *
 * What was measured (docs/development/README.md, `npm run bench`): with nothing waiting on a lock, no retry, no request sent one
 * after another (the three service calls go at once) and no spinner off a terminal, the runs are
 * bound by CPU: each run's wall time is about (CPU of all runs + the server's) / cores, the same for
 * the floor. The notes give the CPU per run (children's user+sys, from /proc/self/stat), which is
 * what kaas itself can make smaller; the ratio is that of the wall times.
 */

const N = 50;

/** A cloud that answers every call of detect (and of the floor) from one origin. */
function scriptedCloud(): Promise<{ url: string; server: http.Server }> {
  const versions = { versions: [{ id: 'v2.0', status: 'CURRENT', updated: '2023-09-05T00:00:00Z', links: [] }, { id: 'v2.27', status: 'CURRENT', updated: '2023-09-05T00:00:00Z', links: [] }] };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      const url = req.url ?? '';
      if (req.method === 'POST' && url === '/v3/auth/tokens') {
        const endpoints = [{ interface: 'public', region: 'RegionOne', region_id: 'RegionOne', url: base }];
        return json(201, {
          token: {
            methods: ['password'], expires_at: new Date(Date.now() + 3_600_000).toISOString(),
            project: { id: 'p1', name: 'demo', domain: { id: 'default', name: 'Default' } }, user: { id: 'u1', name: 'demo', domain: { id: 'default', name: 'Default' } },
            catalog: ['load-balancer', 'network'].map((type) => ({ type, id: type, name: type, endpoints })),
          },
        }, { 'x-subject-token': 'bench-token' });
      }
      if (url === '/') return json(200, versions);
      if (url === '/v2/lbaas/providers') return json(200, { providers: [{ name: 'amphora', description: 'Amphora' }, { name: 'ovn', description: 'OVN' }] });
      if (url.startsWith('/v2.0/networks')) return json(200, { networks: [{ id: 'ext', name: 'ext01', 'router:external': true }] });
      json(404, { error: url });
    }, 5));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

/** The children's CPU so far (user + sys of waited-for children), in ms; undefined off Linux. */
function childrenCpuMs(): number | undefined {
  try {
    const f = fs.readFileSync('/proc/self/stat', 'utf8').slice(fs.readFileSync('/proc/self/stat', 'utf8').lastIndexOf(')') + 2).split(' ');
    return ((Number(f[13]) + Number(f[14])) * 1000) / 100; // cutime, cstime (fields 16, 17) in USER_HZ = 100
  } catch {
    return undefined;
  }
}

/** Starts `n` copies at once; resolves with the wall time until the last ended and the CPU they used. */
async function together(n: number, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; cpuMs?: number }> {
  const cpu0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(args[0])} exited ${code}: ${err.slice(-400)}`))));
  })));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu1 = childrenCpuMs();
  return { ms, cpuMs: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export const bench: Bench = {
  name: `${N} concurrent kaas detect`,
  baseline: `${N} concurrent floor scripts, same 4 requests`,
  async run(runs) {
    const { url, server } = await scriptedCloud();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-bench-concurrent-'));
    try {
      const clouds = path.join(dir, 'clouds.yaml');
      fs.writeFileSync(clouds, `clouds:\n  bench:\n    auth:\n      auth_url: ${url}/v3\n      username: demo\n      password: bench-password\n      project_name: demo\n      user_domain_name: Default\n      project_domain_name: Default\n    region_name: RegionOne\n`);
      const env = { PATH: process.env.PATH, HOME: dir, OS_CLIENT_CONFIG_FILE: clouds, NO_COLOR: '1' };
      const kaasArgs = [KAAS, 'detect', '--cloud', 'bench', '-o', 'json', '--settings-dir', dir];
      const floor = path.join(path.dirname(fileURLToPath(import.meta.url)), 'detect-floor.js');
      const floorEnv = { PATH: process.env.PATH, FLOOR_AUTH_URL: `${url}/v3`, FLOOR_USER: 'demo', FLOOR_PASSWORD: 'bench-password', FLOOR_PROJECT: 'demo', FLOOR_REGION: 'RegionOne' };
      const rounds = Math.max(1, Math.round(runs / 3));
      const k: { ms: number; cpuMs?: number }[] = [];
      const f: { ms: number; cpuMs?: number }[] = [];
      for (let i = 0; i < rounds; i++) {
        k.push(await together(N, process.execPath, kaasArgs, env));
        f.push(await together(N, process.execPath, [floor], floorEnv));
      }
      const cpu = (xs: { cpuMs?: number }[]) => (xs.every((x) => x.cpuMs !== undefined) ? median(xs.map((x) => x.cpuMs!)) / N : undefined);
      const [kc, fc] = [cpu(k), cpu(f)];
      return {
        candidateMs: median(k.map((x) => x.ms)),
        baselineMs: median(f.map((x) => x.ms)),
        notes: [
          `${os.availableParallelism()} cores, median of ${rounds} round(s); CPU per run: kaas ${kc?.toFixed(0) ?? '?'} ms, floor ${fc?.toFixed(0) ?? '?'} ms`,
          'bound by CPU (wall ≈ all runs\' CPU / cores): no lock, retry, serialized request or spinner in the way; target: ratio ≤ 4, kaas CPU per run ≤ 160 ms',
        ],
      };
    } finally {
      server.closeAllConnections();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
