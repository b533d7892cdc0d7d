import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, runKaas, tempDir } from '../support/cli.js';
import { fakeTools } from '../fakes/fake-tools.js';

/**
 * Issue 31 §3, "commands that cannot do the wrong thing quietly" (newcomer review M7, M10, m19,
 * m21), run as a user would: the built CLI, real files, exit codes and stderr.
 */
const T = 120_000;
const UNREACHABLE = { OS_CLIENT_CONFIG_FILE: path.join(ROOT, 'test/fixtures/cluster/clouds-unreachable.yaml') };

describe('a cluster name the environment file does not list (M10)', () => {
  it.each([
    ['create-cluster'],
    ['apply-ingress'],
    ['apply-gateway'],
  ])('%s dmo: a real run is refused with a did-you-mean (exit 2), before anything else', (cmd) => {
    const fake = fakeTools([]);
    try {
      const r = runKaas([cmd, 'dmo', '--env', 'example'], { env: fake.env });
      expect(r.stderr).toBe('error: not running on cluster dmo: example.yaml has no clusters.dmo section (it has: demo, prod); did you mean demo?\n'
        + 'hint: fix the name, add a clusters.dmo section to example.yaml, or pass --new-cluster if dmo is a new cluster made from the environment-level settings\n');
      expect(r.code).toBe(2);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);

  it('the dry run warns with the same did-you-mean and still renders (exit 0)', () => {
    const r = runKaas(['apply-ingress', 'dmo', '--env', 'example', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: example\.yaml has no clusters\.dmo section \(it has: demo, prod\); using the environment-level settings \(a real create-cluster, apply-ingress or apply-gateway refuses it without --new-cluster\); did you mean demo\?$/m);
  }, T);

  it('--new-cluster lets a real run past the name (it stops later, at the missing workload kubeconfig), with no warning', () => {
    const home = tempDir();
    const r = runKaas(['apply-ingress', 'staging', '--env', 'example', '--new-cluster'], { env: { HOME: home } });
    expect(r.stderr).not.toMatch(/clusters\.staging/);
    expect(r.stderr).toMatch(/error: no kubeconfig for cluster staging of environment example: .*staging\.yaml does not exist/);
    expect(r.code).toBe(2);
  }, T);

  it('delete-cluster only warns (cleanup of a cluster whose section is gone), then goes on', () => {
    const r = runKaas(['delete-cluster', 'dmo', '--env', 'example', '--dry-run']);
    expect(r.stderr).toMatch(/^warning: example\.yaml has no clusters\.dmo section .*; did you mean demo\?$/m);
    expect(r.stderr).toMatch(/error: cloud "example-cloud" is not defined anywhere/);
  }, T);
});

describe('the only clouds.yaml entry is never taken by a command that changes things (m19)', () => {
  const setup = () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'settings'));
    writeFileSync(path.join(dir, 'settings', 'solo.yaml'), 'clusters:\n  prod1:\n    use_ovn_lb_provider: false\n');
    const clouds = path.join(dir, 'clouds.yaml');
    writeFileSync(clouds, 'clouds:\n  acme-prod:\n    auth: {auth_url: "http://127.0.0.1:9/v3", application_credential_id: i, application_credential_secret: s-12345678}\n');
    return { dir, clouds, env: { OS_CLIENT_CONFIG_FILE: clouds } };
  };

  it('a real delete-cluster refuses it, naming the entry and how to choose it (exit 2, nothing run)', () => {
    const { dir, clouds, env } = setup();
    const fake = fakeTools([]);
    try {
      const r = runKaas(['delete-cluster', 'prod1', '--env', 'solo', '--yes'], { cwd: dir, env: { ...fake.env, ...env } });
      expect(r.stderr).toContain(`error: no cloud named: kaas does not pick the only entry of ${clouds} (acme-prod) for a command that changes things\n`
        + '  - clouds defined: acme-prod\n'
        + 'hint: set cloud: acme-prod in the environment file, export OS_CLOUD=acme-prod, or pass --cloud acme-prod\n');
      expect(r.code).toBe(2);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);

  it.each([['apply-ingress'], ['apply-gateway']])('a real %s refuses it before applying anything (it asks the cloud after applying)', (cmd) => {
    const { clouds, env } = setup();
    const fake = fakeTools([]);
    try {
      const r = runKaas([cmd, 'demo', '--env', 'example', '--set', 'cloud=', '--kubeconfig', clouds], { env: { ...fake.env, ...env } });
      expect(r.stderr).toContain(`error: no cloud named: kaas does not pick the only entry of ${clouds} (acme-prod)`);
      expect(r.code).toBe(2);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);

  it('a dry run takes it and says which it took on stderr', () => {
    const { dir, clouds, env } = setup();
    const r = runKaas(['create-cluster', 'prod1', '--env', 'solo', '--dry-run', '--set', 'external_network=ext'], { cwd: dir, env });
    expect(r.stderr).toContain(`note: using cloud acme-prod, the only entry of ${clouds} (no --cloud, cloud setting or OS_CLOUD)`);
  }, T);

  it('OS_CLOUD names it: no refusal, no note', () => {
    const { dir, env } = setup();
    const r = runKaas(['delete-cluster', 'prod1', '--env', 'solo', '--yes'], { cwd: dir, env: { ...env, OS_CLOUD: 'acme-prod' } });
    expect(r.stderr).not.toMatch(/no cloud named|note: using cloud/);
    expect(r.stderr).toMatch(/cloud "acme-prod" authenticates|Keystone: POST http:\/\/127\.0\.0\.1:9\/v3\/auth\/tokens failed/);
  }, T);
});

describe('a dry run whose cloud does not answer says so first (M7, m7)', () => {
  it('create-cluster: "cloud example-cloud not reachable: … ECONNREFUSED" heads the blocking list, with a hint naming clouds.yaml', () => {
    const r = runKaas(['create-cluster', 'prod', '--env', 'example', '--dry-run'], { env: UNREACHABLE });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: 2 problems block cluster prod\n {2}- cloud example-cloud not reachable: Keystone: POST http:\/\/127\.0\.0\.1:9\/v3\/auth\/tokens failed with ECONNREFUSED(: connect ECONNREFUSED [^;]*)?; hint: nothing listens at http:\/\/127\.0\.0\.1:9: is Keystone running, and is auth_url of cloud "example-cloud" \(in .*clouds-unreachable\.yaml\) right\?\n {2}- use_ovn_lb_provider: auto needs the cloud's Octavia providers and version/m);
  }, T);

  it.each([['apply-ingress'], ['apply-gateway']])('%s: the error is the cloud, then what needed it', (cmd) => {
    const r = runKaas([cmd, 'prod', '--env', 'example', '--dry-run'], { env: UNREACHABLE });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cloud example-cloud not reachable: Keystone: POST http:\/\/127\.0\.0\.1:9\/v3\/auth\/tokens failed with ECONNREFUSED(: connect ECONNREFUSED .*)?\n {2}- use_ovn_lb_provider is auto, so planning needs the cloud's Octavia providers and version\nhint: nothing listens at .*; or plan offline with --capabilities FILE/m);
  }, T);
});

describe('an external_network the cloud does not have (m21)', () => {
  const caps = () => {
    const f = path.join(tempDir(), 'caps.json');
    writeFileSync(f, JSON.stringify({
      cloud: 'example-cloud', detectedAt: '2026-11-27T00:00:00.000Z',
      octavia: { present: true, maxVersion: '2.26', providers: ['amphora', 'ovn'], defaultProvider: 'amphora', wallabyOrLater: true, allowedCidrs: true },
      neutron: { present: true, externalNetworks: [{ id: 'n-ext-net', name: 'ext-net' }] },
      nova: { present: true },
    }));
    return f;
  };

  it.each([['apply-ingress'], ['apply-gateway']])('%s: a real run is refused as create-cluster refuses it (exit 2)', (cmd) => {
    const r = runKaas([cmd, 'demo', '--env', 'example', '--capabilities', caps()]);
    expect(r.stderr).toMatch(/^error: external network ext01 does not exist \(external networks: ext-net\)\nhint: set external_network to the name or ID of an external network\n$/m);
    expect(r.code).toBe(2);
  }, T);

  it.each([['apply-ingress', 'ingress-nginx.yaml'], ['apply-gateway', 'envoy-gateway.yaml']])('%s --dry-run: a warning, and the manifests still come', (cmd, manifest) => {
    const out = tempDir();
    const r = runKaas([cmd, 'demo', '--env', 'example', '--dry-run', '--output-dir', out, '--capabilities', caps()]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: external network ext01 does not exist \(external networks: ext-net\); a real run refuses it \(hint: set external_network/m);
    expect(readFileSync(path.join(out, manifest), 'utf8')).toMatch(/^kind: Namespace$/m);
  }, T);
});
