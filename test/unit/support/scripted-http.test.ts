import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../../support/cli.js';
import { scriptedServer } from '../../support/scripted-http.js';

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => http.get(url, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); }).on('error', reject));
}

describe('the strict scripted HTTP harness', () => {
  it('passes when every call came, in order', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/a' }, { anyOrder: [{ method: 'GET', path: '/b' }, { method: 'GET', path: '/c' }] }]);
    await get(`${srv.url}/a`);
    await Promise.all([get(`${srv.url}/c`), get(`${srv.url}/b`)]);
    await expect(srv.finish()).resolves.toBeUndefined();
  });

  it('fails on a call out of order (and answers it with 599)', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/a' }, { method: 'GET', path: '/b' }]);
    expect(await get(`${srv.url}/b`)).toBe(599);
    await expect(srv.finish()).rejects.toThrow(/unexpected call GET \/b \(expected GET \/a\)/);
  });

  it('fails when a scripted call never came', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/a' }]);
    await expect(srv.finish()).rejects.toThrow(/missing call GET \/a/);
  });

  it('fails on a wrong header', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/a', headers: { 'x-auth-token': 'T' } }]);
    await get(`${srv.url}/a`);
    await expect(srv.finish()).rejects.toThrow(/header x-auth-token is undefined, expected T/);
  });

  // Issue 23: a test that failed before finish() left its server listening, and jest reported "a worker
  // process has failed to exit gracefully". A process that never calls finish() still ends by itself.
  it('a server whose test never reaches finish() does not keep the process alive', () => {
    const mod = path.join(ROOT, 'dist', 'test', 'support', 'scripted-http.js');
    const script = `const { scriptedServer } = await import(${JSON.stringify(mod)}); const s = await scriptedServer([{ method: 'GET', path: '/x' }]); await fetch(s.url + '/x'); console.log('served');`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout).toContain('served');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  });
});
