import { ciliumImageVersion, installAddon } from '../../../lib/cluster/create/addons.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, type FakeCall } from '../../fakes/fake-tools.js';
import { ciliumStep, knownCiliumReleases } from '../../../lib/plan/cilium-step.js';

describe('ciliumStep: a live cluster’s cilium moves one minor per run, the rest named (review 2026-11-27 N5)', () => {
  it.each<[string, string | undefined, string, string, string[]]>([
    ['not installed: the target', undefined, 'v1.19.3', 'v1.19.3', []],
    ['same version', 'v1.19.3', 'v1.19.3', 'v1.19.3', []],
    ['a patch', 'v1.19.1', 'v1.19.3', 'v1.19.3', []],
    ['one minor', 'v1.18.14', 'v1.19.3', 'v1.19.3', []],
    ['built by the older kaas (1.17.6) → 1.19.3: 1.18.14 now, 1.19.3 next run', 'v1.17.6', 'v1.19.3', 'v1.18.14', ['v1.19.3']],
    ['adopted from SCS with 1.16 → 1.19.3: 1.17.6 now', '1.16.4', 'v1.19.3', 'v1.17.6', ['v1.18.14', 'v1.19.3']],
    ['on Kubernetes 1.36 (1.20.2) from 1.18.10, installed by hand: 1.19.3 now, 1.20.2 next run', 'v1.18.10', 'v1.20.2', 'v1.19.3', ['v1.20.2']],
    ['one minor down (tested rollback)', 'v1.19.3', 'v1.18.14', 'v1.18.14', []],
  ])('%s', (_n, running, target, now, later) => {
    const d = ciliumStep(running, target);
    expect(d.ok && d.value).toEqual({ version: now, remaining: later });
    if (later.length) expect(d.ok && d.warnings).toEqual([`cilium stops at ${now} this run (one minor at a time); run create-cluster again to move on to ${later.join(', then ')}`]);
  });

  it.each<[string, string, string, RegExp, RegExp]>([
    ['the next minor has no known release (1.15 → 1.19.3)', 'v1.15.19', 'v1.19.3', /kaas knows no v1\.16 release/, /set use_cilium to the newest v1\.16\.Z release .*\(v1\.17\.6, then v1\.18\.14, then v1\.19\.3\)/],
    ['two minors down', 'v1.19.3', 'v1.17.6', /would move down 2 minor versions/, /set use_cilium to a v1\.18 or newer release/],
    ['the running version cannot be read', 'sha256:abc', 'v1.19.3', /cannot tell how far cilium moves: the cluster runs "sha256:abc"/, /kubectl -n kube-system get daemonset cilium/],
  ])('refused: %s', (_n, running, target, message, hint) => {
    const d = ciliumStep(running, target);
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.refusals[0].message).toMatch(message);
      expect(d.refusals[0].hint).toMatch(hint);
    }
  });

  it('knows the add-on table’s release per minor', () => {
    expect([...knownCiliumReleases()]).toEqual([[17, 'v1.17.6'], [18, 'v1.18.14'], [19, 'v1.19.3'], [20, 'v1.20.2']]);
  });
});

describe('ciliumImageVersion: the running version from the DaemonSet', () => {
  it.each([
    ['quay.io/cilium/cilium:v1.17.6@sha256:544de3d4fed7acba72758413812780a4972d47c39035f2a06d6145d8644a3353', 'v1.17.6'],
    ['quay.io/cilium/cilium:v1.16.4', 'v1.16.4'],
    ['quay.io/cilium/cilium@sha256:544de3d4', 'quay.io/cilium/cilium@sha256:544de3d4'],
  ])('%s → %s', (image, version) => {
    expect(ciliumImageVersion({ spec: { template: { spec: { containers: [{ name: 'cilium-agent', image }] } } } })).toBe(version);
  });
});

describe('installAddon applies only the next cilium minor on a live cluster (wiring of ciliumStep)', () => {
  const KC = '/w/kc';
  const ds = (image: string) => JSON.stringify({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'cilium', namespace: 'kube-system' }, spec: { template: { spec: { containers: [{ name: 'cilium-agent', image }] } } } });
  const ctx = { cluster: 'demo', cloudConf: '', mtu: 0, podCidr: '192.168.0.0/16' };
  const run = async (image: string, method: 'cilium-cli' | 'helm', tool: FakeCall, chart?: string) => {
    const fake = fakeTools([
      { tool: 'kubectl', argv: ['--kubeconfig', KC, 'get', 'daemonset', 'cilium', '--namespace', 'kube-system', '-o', 'json'], response: { stdout: ds(image) } },
      tool,
    ]);
    const logger = memoryLogger(false);
    const runner = fakeRunner(fake);
    const summary = await installAddon({ name: 'cilium', version: 'v1.19.3', method, ...(chart ? { chart } : {}) }, ctx, { kubectl: createKubectl(runner, { kubeconfig: KC }, fake.bin('kubectl')), runner, kubeconfig: KC, logger });
    fake.assertDone();
    return { summary, logger };
  };

  it('cilium CLI: 1.17.6 running, 1.19.3 wanted → cilium upgrade --version 1.18.14, 1.19.3 named for the next run', async () => {
    const { summary, logger } = await run('quay.io/cilium/cilium:v1.17.6@sha256:544de3d4', 'cilium-cli', { tool: 'cilium', argv: ['upgrade', '--version', '1.18.14', '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } });
    expect(summary).toBe('cilium v1.18.14 upgraded (cilium CLI); later runs: v1.19.3');
    expect(logger.lines.join('\n')).toContain('cilium stops at v1.18.14 this run (one minor at a time); run create-cluster again to move on to v1.19.3');
  });

  it('cilium CLI with a mirror (cilium_chart_repo): --repository names it', async () => {
    const { summary } = await run('quay.io/cilium/cilium:v1.18.10', 'cilium-cli', { tool: 'cilium', argv: ['upgrade', '--version', '1.19.3', '--repository', 'https://charts.mirror.example/cilium', '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } }, 'https://charts.mirror.example/cilium');
    expect(summary).toBe('cilium v1.19.3 upgraded (cilium CLI)');
  });

  it('helm with a mirror: --repo names it', async () => {
    await run('quay.io/cilium/cilium:v1.18.10', 'helm', { tool: 'helm', argv: ['upgrade', '--install', 'cilium', 'cilium', '--repo', 'http://127.0.0.1:18080', '--version', '1.19.3', '--namespace', 'kube-system', '--create-namespace', '--kubeconfig', KC, '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } }, 'http://127.0.0.1:18080');
  });

  it('helm with an OCI reference: the reference is the chart, no --repo', async () => {
    await run('quay.io/cilium/cilium:v1.18.10', 'helm', { tool: 'helm', argv: ['upgrade', '--install', 'cilium', 'oci://quay.io/cilium/charts/cilium', '--version', '1.19.3', '--namespace', 'kube-system', '--create-namespace', '--kubeconfig', KC, '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } }, 'oci://quay.io/cilium/charts/cilium');
  });

  it('helm: the same step', async () => {
    const { summary } = await run('quay.io/cilium/cilium:v1.17.6', 'helm', { tool: 'helm', argv: ['upgrade', '--install', 'cilium', 'cilium', '--repo', 'https://helm.cilium.io', '--version', '1.18.14', '--namespace', 'kube-system', '--create-namespace', '--kubeconfig', KC, '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } });
    expect(summary).toBe('cilium v1.18.14 installed (helm); later runs: v1.19.3');
  });
});
