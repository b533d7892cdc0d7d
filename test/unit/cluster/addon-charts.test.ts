import { installAddon } from '../../../lib/cluster/create/addons.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { planAddons } from '../../../lib/plan/addons.js';
import { SETTINGS } from '../../../lib/settings/table.js';
import type { Settings } from '../../../lib/settings/types.js';
import { fakeRunner, fakeTools, type FakeCall } from '../../fakes/fake-tools.js';

/**
 * cilium_chart_repo and cert_manager_chart_repo from the settings to the argv of helm and the cilium
 * CLI: planned by planAddons, installed by installAddon, each tool call checked argument by argument.
 */

const defaults = Object.fromEntries(SETTINGS.map((d) => [d.key, d.default])) as unknown as Settings;
const KC = '/w/kc';
const ONLY = { deploy_occm: false, deploy_cindercsi: false, deploy_metrics: false } as const;
const CILIUM_CLI = { cilium: true, helm: true };
const HELM = { cilium: false, helm: true };
// No cilium yet: the CLI installs (kaas reads the DaemonSet first, lib/plan/cilium-step.ts).
const noCilium: FakeCall = {
  tool: 'kubectl', argv: ['--kubeconfig', KC, 'get', 'daemonset', 'cilium', '--namespace', 'kube-system', '-o', 'json'],
  response: { stderr: 'Error from server (NotFound): daemonsets.apps "cilium" not found\n', exitCode: 1 },
};

const ciliumCli = (...repository: string[]): FakeCall => ({ tool: 'cilium', argv: ['install', '--version', '1.18.14', ...repository, '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } });
const helmCilium = (...source: string[]): FakeCall => ({ tool: 'helm', argv: ['upgrade', '--install', 'cilium', ...source, '--version', '1.18.14', '--namespace', 'kube-system', '--create-namespace', '--kubeconfig', KC, '--set', 'ipam.mode=kubernetes'], response: { stdout: '' } });
const helmCertManager = (...source: string[]): FakeCall => ({ tool: 'helm', argv: ['upgrade', '--install', 'cert-manager', ...source, '--version', 'v1.16.0', '--namespace', 'cert-manager', '--create-namespace', '--kubeconfig', KC, '--set', 'crds.enabled=true'], response: { stdout: '' } });

describe('the chart settings reach helm and the cilium CLI (settings → planAddons → installAddon)', () => {
  it.each<[string, 'cilium' | 'cert-manager', Partial<Settings>, { cilium: boolean; helm: boolean }, FakeCall[]]>([
    // The defaults: today's argv, unchanged (no --repository: the cilium CLI's own default and embedded charts).
    ['cilium CLI, default repository', 'cilium', {}, CILIUM_CLI, [noCilium, ciliumCli()]],
    ['helm cilium, default repository', 'cilium', {}, HELM, [noCilium, helmCilium('cilium', '--repo', 'https://helm.cilium.io')]],
    ['helm cert-manager, default repository', 'cert-manager', { use_cilium: false }, HELM, [helmCertManager('cert-manager', '--repo', 'https://charts.jetstack.io')]],
    // An http(s) mirror replaces the repository URL.
    ['cilium CLI, https mirror: --repository', 'cilium', { cilium_chart_repo: 'https://charts.mirror.example/cilium' }, CILIUM_CLI, [noCilium, ciliumCli('--repository', 'https://charts.mirror.example/cilium')]],
    ['helm cilium, https mirror: --repo', 'cilium', { cilium_chart_repo: 'https://charts.mirror.example/cilium' }, HELM, [noCilium, helmCilium('cilium', '--repo', 'https://charts.mirror.example/cilium')]],
    ['helm cert-manager, http mirror: --repo', 'cert-manager', { use_cilium: false, cert_manager_chart_repo: 'http://10.0.0.5:8080/jetstack' }, HELM, [helmCertManager('cert-manager', '--repo', 'http://10.0.0.5:8080/jetstack')]],
    // An oci:// reference is the chart itself: helm gets it in the chart's place without --repo, the cilium CLI as --repository.
    ['cilium CLI, OCI reference: --repository', 'cilium', { cilium_chart_repo: 'oci://quay.io/cilium/charts/cilium' }, CILIUM_CLI, [noCilium, ciliumCli('--repository', 'oci://quay.io/cilium/charts/cilium')]],
    ['helm cilium, OCI reference: the chart, no --repo', 'cilium', { cilium_chart_repo: 'oci://quay.io/cilium/charts/cilium' }, HELM, [noCilium, helmCilium('oci://quay.io/cilium/charts/cilium')]],
    ['helm cert-manager, OCI reference: the chart, no --repo', 'cert-manager', { use_cilium: false, cert_manager_chart_repo: 'oci://quay.io/jetstack/charts/cert-manager' }, HELM, [helmCertManager('oci://quay.io/jetstack/charts/cert-manager')]],
    // Each setting moves only its own chart.
    ['cert-manager keeps its repository when only cilium_chart_repo is set', 'cert-manager', { cilium_chart_repo: 'oci://quay.io/cilium/charts/cilium' }, HELM, [helmCertManager('cert-manager', '--repo', 'https://charts.jetstack.io')]],
    ['cilium keeps its repository when only cert_manager_chart_repo is set', 'cilium', { cert_manager_chart_repo: 'https://charts.mirror.example/jetstack' }, CILIUM_CLI, [noCilium, ciliumCli()]],
  ])('%s', async (_n, name, over, tools, calls) => {
    const p = planAddons({ ...defaults, ...ONLY, deploy_cert_manager: 'v1.16.0', ...over }, 'v1.33.4', tools);
    if (!p.ok) throw new Error(p.refusals[0].message);
    const step = p.value.find((s) => s.name === name)!;
    const fake = fakeTools(calls);
    const runner = fakeRunner(fake);
    await installAddon(step, { cluster: 'demo', cloudConf: '', mtu: 0, podCidr: '192.168.0.0/16' }, { kubectl: createKubectl(runner, { kubeconfig: KC }, fake.bin('kubectl')), runner, kubeconfig: KC, logger: memoryLogger(false) });
    fake.assertDone();
  });

  it('a step carries the chart source only when it is not the project\'s own repository', () => {
    const steps = (over: Partial<Settings>) => {
      const p = planAddons({ ...defaults, ...ONLY, deploy_cert_manager: 'v1.16.0', ...over }, 'v1.33.4', CILIUM_CLI);
      return p.ok ? p.value : p.refusals;
    };
    expect(steps({ cilium_chart_repo: 'https://helm.cilium.io', cert_manager_chart_repo: 'https://charts.jetstack.io' })).toEqual([
      { name: 'cilium', version: 'v1.18.14', method: 'cilium-cli' }, { name: 'cert-manager', version: 'v1.16.0', method: 'helm' }]);
    expect(steps({ cilium_chart_repo: 'oci://harbor.example/cilium/charts/cilium', cert_manager_chart_repo: 'https://charts.mirror.example/jetstack' })).toEqual([
      { name: 'cilium', version: 'v1.18.14', method: 'cilium-cli', chart: 'oci://harbor.example/cilium/charts/cilium' },
      { name: 'cert-manager', version: 'v1.16.0', method: 'helm', chart: 'https://charts.mirror.example/jetstack' }]);
  });
});
