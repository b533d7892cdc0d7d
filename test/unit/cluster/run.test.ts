import path from 'node:path';
import { ingressStepOptions } from '../../../lib/cluster/run.js';
import { loadSettings } from '../../../lib/settings/load.js';

/** create-cluster's ingress step must plan against the cloud the cluster was planned with. */
describe('create-cluster ingress step options', () => {
  const base = { cluster: 'demo', env: 'example', settingsDir: 'settings', sets: ['worker_count=4'], dryRun: false, environ: {}, cwd: process.cwd(), home: '/tmp/h' };

  it('carries --cloud (as the cloud setting) and --capabilities to apply-ingress', () => {
    const o = ingressStepOptions({ ...base, cloud: 'other-cloud', capabilitiesFile: 'caps.json' }, 'demo', '/tmp/h/.kube/kaas/demo.yaml');
    expect(o).toMatchObject({ verify: true, cluster: 'demo', kubeconfig: '/tmp/h/.kube/kaas/demo.yaml', capabilitiesFile: path.resolve('caps.json'), sets: ['worker_count=4', 'cloud=other-cloud'] });
    const s = loadSettings({ settingsDir: path.resolve('settings'), env: 'example', cluster: 'demo', environ: {}, sets: o.sets, cwd: process.cwd() }).values;
    expect(s.cloud).toBe('other-cloud');
    expect(s.worker_count).toBe(4);
  });

  it('without --cloud the settings decide, as for the cluster', () => {
    const o = ingressStepOptions(base, 'demo', '/k');
    expect(o.sets).toEqual(['worker_count=4']);
    expect(o.capabilitiesFile).toBeUndefined();
  });
});
