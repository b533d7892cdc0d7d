import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { planCluster } from '../../../lib/cluster/plan.js';
import type { KubeObject } from '../../../lib/render/documents.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { PlanError } from '../../../lib/errors.js';
import { AMPHORA_PLAN, fakeCloud, TEST_CLOUD } from './fake-cloud.js';

/**
 * registry_mirrors reaches every node: the same files in the workers' KubeadmConfigTemplate and in
 * the KubeadmControlPlane's kubeadmConfigSpec, valid against the Cluster API v1.12 CRDs (planCluster
 * validates), and a change names a new worker template (the MachineDeployment rolls to it).
 */

const GOLDEN = 'test/golden/cluster/registry-mirrors/node-files.yaml';
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBeDCCAR+gAwIBAgIUfake\n-----END CERTIFICATE-----\n';
const MIRRORS = 'registry_mirrors=[{registry: docker.io, endpoints: ["https://registry.scs.community/v2/docker.io"], server: "https://registry-1.docker.io", capabilities: [pull], override_path: true}, {registry: "harbor.example:5000", ca_file: certs/harbor-ca.pem}]';

async function plan(sets: string[], files: Record<string, string> = {}) {
  const settings = loadSettings({ settingsDir: 'settings', env: 'example', cluster: 'demo', environ: {}, sets, cwd: process.cwd() }).values;
  return planCluster({
    cluster: 'demo', settings, cloudConfig: TEST_CLOUD, cloud: fakeCloud(), lb: AMPHORA_PLAN, strict: true,
    tools: { cilium: true, helm: true }, settingsDir: '/srv/kaas/settings',
    readFile: (p) => {
      if (p in files) return files[p];
      if (p.startsWith('/srv/')) throw new Error(`cannot read ${p}: does not exist`);
      return '';
    },
  });
}

const one = (objs: KubeObject[], kind: string) => objs.filter((o) => o.kind === kind)[0] as KubeObject & { spec: Record<string, any> };

describe('registry_mirrors in the rendered cluster', () => {
  it('gives workers and control plane the same hosts.toml and CA files (golden)', async () => {
    const p = await plan([MIRRORS], { '/srv/kaas/settings/certs/harbor-ca.pem': PEM });
    const workers = one(p.objects, 'KubeadmConfigTemplate').spec.template.spec.files;
    const controlPlane = one(p.objects, 'KubeadmControlPlane').spec.kubeadmConfigSpec.files;
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(path.dirname(GOLDEN), { recursive: true });
      writeFileSync(GOLDEN, stringify(workers, { blockQuote: 'literal', lineWidth: 0 }));
    }
    expect(existsSync(GOLDEN)).toBe(true);
    expect(workers).toEqual(parseYaml(readFileSync(GOLDEN, 'utf8')));
    expect(controlPlane).toEqual(workers);
    expect(p.reasons).toContain('registry harbor.example:5000: pulled directly, with its CA (/etc/containerd/certs.d/harbor.example:5000/hosts.toml on every node)');
  });

  it('adds no files without the setting, and a change names a new worker template (a rollout)', async () => {
    const without = await plan([]);
    expect(one(without.objects, 'KubeadmConfigTemplate').spec.template.spec.files).toBeUndefined();
    expect(one(without.objects, 'KubeadmControlPlane').spec.kubeadmConfigSpec.files).toBeUndefined();
    const withIt = await plan([MIRRORS], { '/srv/kaas/settings/certs/harbor-ca.pem': PEM });
    const name = (x: typeof without) => one(x.objects, 'KubeadmConfigTemplate').metadata.name;
    expect(name(withIt)).not.toBe(name(without));
    expect(one(withIt.objects, 'MachineDeployment').spec.template.spec.bootstrap.configRef.name).toBe(name(withIt));
  });

  it('refuses the plan (exit 2) when a ca_file cannot be read, with nothing rendered', async () => {
    const err = await plan([MIRRORS]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanError);
    const e = err as PlanError;
    expect(e.exitCode).toBe(2);
    expect([e.message, ...(e.problems ?? [])].join('\n')).toContain('registry_mirrors[1].ca_file certs/harbor-ca.pem: cannot read /srv/kaas/settings/certs/harbor-ca.pem: does not exist');
  });
});
