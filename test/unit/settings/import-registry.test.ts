import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { memoryLogger } from '../../../lib/log.js';
import { importScs } from '../../../lib/import/import.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { ROOT, tempDir } from '../../support/cli.js';

/**
 * `settings import --tfvars` with SCS's containerd_registry_files: the hosts files and certs as the
 * SCS layout keeps them (terraform/files/containerd/…, paths relative to terraform/), converted into
 * registry_mirrors, with a note for each file that cannot be read or converted.
 */

const SCS = path.join(ROOT, 'test', 'fixtures', 'scs');
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBharborfake\n-----END CERTIFICATE-----\n';

/** An SCS checkout's terraform/ directory with the given tfvars line and files under files/containerd/. */
function scsTree(tfvarsLine: string, files: Record<string, string>): { dir: string; tfvars: string } {
  const dir = tempDir();
  const tf = path.join(dir, 'terraform');
  mkdirSync(path.join(tf, 'environments'), { recursive: true });
  mkdirSync(path.join(tf, 'files', 'containerd', 'certs'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(tf, 'files', 'containerd', name), text);
  const tfvars = path.join(tf, 'environments', 'environment-reg.tfvars');
  writeFileSync(tfvars, `cloud_provider = "openstack"\n${tfvarsLine}\n`);
  return { dir, tfvars };
}

async function importTree(t: { dir: string; tfvars: string }) {
  const settingsDir = path.join(t.dir, 'settings');
  const r = await importScs({
    clusterctlFile: path.join(SCS, 'clusterctl.yaml'), tfvarsFile: t.tfvars, cluster: 'prod1', settingsDir, env: 'reg', cwd: t.dir, dryRun: false,
  }, { logger: memoryLogger() });
  const data = r.data as { imported: { key: string; value: unknown; from: string }[]; notes: string[]; dropped: { name: string; reason: string }[] };
  return { r, data, settings: loadSettings({ settingsDir, env: 'reg', cluster: 'prod1', environ: {}, cwd: t.dir }).values };
}

describe('settings import: containerd_registry_files → registry_mirrors', () => {
  it('converts the SCS docker.io mirror and a private registry with its cert, and reports where they came from', async () => {
    const t = scsTree('containerd_registry_files = {"hosts":["./files/containerd/docker.io", "./files/containerd/harbor.example:5000"], "certs":["./files/containerd/certs/harbor-ca.pem"]}', {
      'docker.io': 'server = "https://registry-1.docker.io"\n\n[host."https://registry.scs.community/v2/docker.io"]\n    capabilities = ["pull"]\n    override_path = true\n',
      'harbor.example:5000': '# our harbor\nserver = \'https://harbor.example:5000\'\nca = "/etc/containerd/certs/harbor-ca.pem"\n',
      'certs/harbor-ca.pem': PEM,
    });
    const { r, data, settings } = await importTree(t);
    expect(settings.registry_mirrors).toEqual([
      { registry: 'docker.io', endpoints: ['https://registry.scs.community/v2/docker.io'], server: 'https://registry-1.docker.io', capabilities: ['pull'], override_path: true },
      { registry: 'harbor.example:5000', server: 'https://harbor.example:5000', ca: PEM },
    ]);
    expect(data.imported.find((i) => i.key === 'registry_mirrors')?.from).toBe('containerd_registry_files (terraform/environments/environment-reg.tfvars:2; docker.io, harbor.example:5000)');
    expect(r.text).toMatch(/^ {2}registry_mirrors +\[.*← containerd_registry_files/m);
    expect(data.dropped.map((d) => d.name)).not.toContain('containerd_registry_files');
    expect(data.notes.filter((n) => n.includes('containerd_registry_files'))).toEqual([]);
  });

  it('notes each file it cannot read or convert, and imports the rest', async () => {
    const t = scsTree('containerd_registry_files = {"hosts":["./files/containerd/docker.io", "./files/containerd/ghcr.io", "./files/containerd/quay.io"], "certs":["./files/containerd/certs/unused.pem"]}', {
      'docker.io': '[host."https://mirror.example"]\n  capabilities = ["pull", "resolve"]\n',
      'quay.io': '[host."https://q.example"]\n  capabilities = ["pull"]\n[host."https://q.example".header]\n  x-token = "abc"\n',
      'certs/unused.pem': PEM,
    });
    const { data, settings } = await importTree(t);
    expect(settings.registry_mirrors).toEqual([{ registry: 'docker.io', endpoints: ['https://mirror.example'] }]);
    const where = 'terraform/environments/environment-reg.tfvars:2: containerd_registry_files:';
    expect(data.notes.filter((n) => n.includes('containerd_registry_files'))).toEqual([
      `${where} cannot read ./files/containerd/ghcr.io (not found under terraform, terraform/environments, .): registry ghcr.io is not imported; add it to registry_mirrors by hand`,
      `${where} registry quay.io is not imported: terraform/files/containerd/quay.io:3: table [host."https://q.example".header] (e.g. [header]) has no place in registry_mirrors; add it to registry_mirrors by hand`,
      `${where} cert unused.pem is used by no hosts file; SCS only copied it to /etc/containerd/certs/unused.pem: add it as ca_file of the registry that needs it`,
    ]);
  });

  it('says what an SCS cluster had when the tfvars leave containerd_registry_files unset (the registry.scs.community mirror)', async () => {
    const t = scsTree('worker_count = 3', {});
    const { data, settings } = await importTree(t);
    expect(settings.registry_mirrors).toEqual([]);
    expect(data.notes.find((n) => n.startsWith('containerd_registry_files is not set'))).toContain('kaas configures no mirror unless registry_mirrors says so');
  });
});
