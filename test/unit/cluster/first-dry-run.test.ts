import { createCluster } from '../../../lib/cluster/create/create.js';
import { ServiceMissing } from '../../../lib/cluster/cloud.js';
import { absentService } from '../../../lib/cluster/plan.js';
import type { KaasError } from '../../../lib/errors.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, fakeTools, runOptions, sandbox } from './scenario.js';

/**
 * Issue 23, newcomer friction: the first `create-cluster --dry-run` on a real cloud failed in rounds
 * (the image list, then the password credential, then the management host's address), one error a run.
 * Every blocking problem is now listed at once, and a service the catalog lacks is named as absent.
 */
describe('the first create-cluster --dry-run on a new cloud', () => {
  it('lists every blocking problem at once: no Glance, a password cloud, no external network, no management host address (exit 2)', async () => {
    const sb = sandbox();
    const fake = fakeTools([]);
    const state = { ...exampleCloudState(), externalNetworks: [], servers: {} };
    const cloud = { ...fakeCloud(state), imageNames: async (): Promise<string[]> => { throw new ServiceMissing('the catalog has no "image" service'); } };
    try {
      const o = { ...runOptions(sb, { dryRun: true }), cloud: 'password-cloud', sets: [`mgmt_kubeconfig=${sb.mgmt}`, 'kubernetes_version=v1.34.x'] };
      const err = await createCluster(o, fakeDeps(fake, cloud)).then(() => undefined, (e: KaasError) => e);
      expect(err).toMatchObject({ message: '4 problems block cluster demo', exitCode: 2 });
      expect(err!.problems).toEqual([
        expect.stringMatching(/^kubernetes_version v1\.34\.x needs the cloud's image list .*the catalog has no "image" service: this cloud does not offer Glance to your project/),
        expect.stringMatching(/^external network ext01 does not exist \(external networks: none\); hint: /),
        expect.stringMatching(/^restrict_kubeapi needs the management host's address .*no Nova server named capi-mgmtcluster.*; hint: set mgmt_host_cidrs/),
        expect.stringMatching(/^cloud "password-cloud" authenticates with a password.*; hint: create one/),
      ]);
      expect(err!.hint).toMatch(/fix each of them/);
    } finally {
      fake.cleanup();
    }
  });

  it('a load-balancer plan that cannot work on this cloud is one of the problems listed, not a round of its own', async () => {
    const sb = sandbox();
    const fake = fakeTools([]);
    try {
      const o = { ...runOptions(sb, { dryRun: true }), cloud: 'password-cloud' };
      const err = await createCluster(o, fakeDeps(fake, fakeCloud({ ...exampleCloudState(), providers: [] }))).then(() => undefined, (e: KaasError) => e);
      expect(err).toMatchObject({ message: '3 problems block cluster demo', exitCode: 2 });
      expect(err!.problems).toEqual([
        expect.stringMatching(/^Octavia lists no enabled provider driver/),
        expect.stringMatching(/^restrict_kubeapi cannot be enforced: the cloud offers the Octavia providers none/),
        expect.stringMatching(/authenticates with a password/),
      ]);
    } finally {
      fake.cleanup();
    }
  });

  it('one problem alone keeps its own message and hint', async () => {
    const sb = sandbox();
    const fake = fakeTools([]);
    try {
      const o = { ...runOptions(sb, { dryRun: true }), cloud: 'password-cloud' };
      await expect(createCluster(o, fakeDeps(fake))).rejects.toMatchObject({ message: expect.stringMatching(/^cloud "password-cloud" authenticates with a password/), hint: expect.stringMatching(/application credential create/), exitCode: 2 });
    } finally {
      fake.cleanup();
    }
  });

  it.each([
    ['the catalog has no "image" service', 'the catalog has no "image" service: this cloud does not offer Glance to your project (or region_name names another region)'],
    ['the catalog has no "compute" service', 'the catalog has no "compute" service: this cloud does not offer Nova to your project (or region_name names another region)'],
    ['the "image" service has no public endpoint in region R2 (regions: R1)', 'the "image" service has no public endpoint in region R2 (regions: R1)'],
  ])('a missing service is said plainly: %s', (reason, said) => {
    expect(absentService(reason)).toBe(said);
  });
});
