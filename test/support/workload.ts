import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createKubectl, type KubeTarget } from '../../lib/kube/kubectl.js';
import { fakeRunner, type FakeTools } from '../fakes/fake-tools.js';
import { tempDir } from './cli.js';

/**
 * A fresh home with a workload kubeconfig in it (0600, as create-cluster writes one): the fake
 * kubectl never reads it, kaas only checks that it exists and passes `--kubeconfig <path>`.
 */
export function workloadHome(file = 'workload.yaml'): { home: string; kubeconfig: string } {
  const home = tempDir('kaas-home-');
  const kubeconfig = path.join(home, file);
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n', { mode: 0o600 });
  return { home, kubeconfig };
}

/** The use cases' `kubectlFor`, sending every kubectl call to the fake's executable. */
export function fakeKubectlFor(fake: () => FakeTools) {
  return (t: KubeTarget) => createKubectl(fakeRunner(fake()), t, fake().bin('kubectl'));
}
