import { existsSync } from 'node:fs';
import path from 'node:path';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { appliedDir, readApplied, recordApplied, removeIngress } from '../../../lib/ingress/applied.js';
import { fakeRunner, fakeTools, type FakeTools } from '../../fakes/fake-tools.js';
import { tempDir } from '../../support/cli.js';
import { localKey } from '../../../lib/state/local-state.js';

let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

describe('removing the ingress (for delete-cluster)', () => {
  const manifest = '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ingress-nginx\n';
  const delSvc = ['--kubeconfig', '/kc', 'delete', 'service', 'ingress-nginx-controller', '--namespace', 'ingress-nginx', '--ignore-not-found', '--wait=false'];

  it('deletes the LB Service first without waiting for OCCM\'s finalizer (a broken OCCM held kubectl until it was killed, and delete-cluster skipped the PVCs: review 2026-11-27 n3), then what was recorded, then the record', async () => {
    const key = localKey(tempDir('kaas-home-'), 'example', '', 'demo');
    const file = recordApplied(key, 'ingress-nginx', manifest);
    expect(file).toBe(path.join(appliedDir(key), 'ingress-nginx.yaml'));
    fake = fakeTools([
      { tool: 'kubectl', argv: delSvc },
      { tool: 'kubectl', argv: ['--kubeconfig', '/kc', 'delete', '-f', '-', '--ignore-not-found', '--wait=false'], stdin: manifest },
    ]);
    await removeIngress(createKubectl(fakeRunner(fake), { kubeconfig: '/kc' }, fake.bin('kubectl')), key, memoryLogger());
    fake.assertDone();
    expect(existsSync(file)).toBe(false);
  });

  it('is a no-op beyond the Service when nothing was recorded (second run)', async () => {
    const key = localKey(tempDir('kaas-home-'), 'example', '', 'demo');
    fake = fakeTools([{ tool: 'kubectl', argv: delSvc }]);
    await removeIngress(createKubectl(fakeRunner(fake), { kubeconfig: '/kc' }, fake.bin('kubectl')), key, memoryLogger());
    fake.assertDone();
    expect(readApplied(key, 'ingress-nginx')).toBeUndefined();
  });
});
