import { createCluster } from '../../../lib/cluster/create/create.js';
import { unreachableFirst } from '../../../lib/cluster/plan.js';
import type { KaasError } from '../../../lib/errors.js';
import { cloudNotReachable, HttpError } from '../../../lib/openstack/http-error.js';
import { fakeCloud } from './fake-cloud.js';
import { fakeDeps, fakeTools, runOptions, sandbox } from './scenario.js';

/**
 * Issue 31 §3, newcomer M7: a dry run whose cloud does not answer said "use_ovn_lb_provider: auto
 * needs the cloud's Octavia providers" and nothing about the cloud. The blocking list now begins
 * with "cloud <name> not reachable: <method> <url> <code>", then what depends on it.
 */
const refused = new HttpError({ service: 'Keystone', method: 'POST', url: 'http://127.0.0.1:9/v3/auth/tokens', code: 'ECONNREFUSED', hint: 'nothing listens at http://127.0.0.1:9' });

describe('an unreachable cloud heads the blocking problems', () => {
  const cloud = { message: 'cloud c not reachable: x', hint: 'h' };
  const auto = { message: 'use_ovn_lb_provider: auto needs the cloud', hint: 'h2' };
  it.each([
    ['with other problems: first', [auto], cloud, [cloud, auto]],
    ['alone it blocks nothing (the dry run plans offline)', [], cloud, []],
    ['a reachable cloud adds nothing', [auto], undefined, [auto]],
  ])('%s', (_what, refusals, unreachable, want) => {
    expect(unreachableFirst(refusals, unreachable)).toEqual(want);
  });

  it.each([
    ['no answer: not reachable, with the error\'s hint', refused,
      { message: 'cloud acme not reachable: Keystone: POST http://127.0.0.1:9/v3/auth/tokens failed with ECONNREFUSED', hint: 'nothing listens at http://127.0.0.1:9' }],
    ['an HTTP answer: reached but not usable', new HttpError({ service: 'Keystone', method: 'POST', url: 'https://k/v3/auth/tokens', status: 401, hint: 'check the credentials' }),
      { message: 'cloud acme not usable: Keystone: POST https://k/v3/auth/tokens failed with HTTP 401', hint: 'check the credentials' }],
    ['an error without a hint gets one', new Error('socket hang up\nmore'),
      { message: 'cloud acme not reachable: socket hang up', hint: 'run kaas detect --cloud acme --verbose to see each request' }],
  ])('%s', (_what, err, want) => {
    expect(cloudNotReachable('acme', err)).toEqual(want);
  });
});

describe('create-cluster --dry-run with the cloud down', () => {
  const run = async (cluster: string, deps: ReturnType<typeof fakeDeps>) => {
    const sb = sandbox();
    return createCluster({ ...runOptions(sb, { dryRun: true }), cluster, sets: [`mgmt_kubeconfig=${sb.mgmt}`] }, deps);
  };

  it('Keystone refuses the connection: "cloud example-cloud not reachable: …" comes before "auto needs the cloud" (exit 2)', async () => {
    const fake = fakeTools([]);
    try {
      const deps = { ...fakeDeps(fake), connectCloud: async () => { throw refused; } };
      const err = await run('prod', deps).then(() => undefined, (e: KaasError) => e);
      expect(err).toMatchObject({ message: '2 problems block cluster prod', exitCode: 2 });
      expect(err!.problems).toEqual([
        'cloud example-cloud not reachable: Keystone: POST http://127.0.0.1:9/v3/auth/tokens failed with ECONNREFUSED; hint: nothing listens at http://127.0.0.1:9',
        expect.stringMatching(/^use_ovn_lb_provider: auto needs the cloud's Octavia providers and version; hint: /),
      ]);
    } finally {
      fake.cleanup();
    }
  });

  it('the token works but the capabilities cannot be read: said first too', async () => {
    const fake = fakeTools([]);
    try {
      const down = { ...fakeCloud(), capabilities: async () => { throw new HttpError({ service: 'Octavia', method: 'GET', url: 'http://127.0.0.1:9/', code: 'ETIMEDOUT', hint: 'Octavia did not answer' }); } };
      const err = await run('prod', fakeDeps(fake, down)).then(() => undefined, (e: KaasError) => e);
      expect(err!.problems[0]).toBe('cloud example-cloud not reachable: Octavia: GET http://127.0.0.1:9/ failed with ETIMEDOUT; hint: Octavia did not answer');
      expect(err!.problems[1]).toMatch(/^use_ovn_lb_provider: auto needs the cloud's/);
    } finally {
      fake.cleanup();
    }
  });

  it('with nothing else blocking, the dry run still renders offline and the checks say why they were skipped', async () => {
    const fake = fakeTools([]);
    try {
      const deps = { ...fakeDeps(fake), connectCloud: async () => { throw refused; } };
      const r = await run('demo', deps);
      expect(r.manifests).toContain('kind: Cluster');
      expect(r.checks.find((c) => c.name === 'image')).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/^cloud example-cloud not reachable: Keystone: POST/) });
    } finally {
      fake.cleanup();
    }
  });
});
