import http from 'node:http';
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
});
