import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openstackClusterCloud } from '../../../lib/cluster/cloud.js';
import { memoryLogger } from '../../../lib/log.js';
import { resolveCloudConfig } from '../../../lib/openstack/cloud-config.js';
import { connect } from '../../../lib/openstack/connection.js';
import { tempDir } from '../../support/cli.js';
import { sqliteRetry } from '../../support/doctor-project.js';
import { peer } from '../../support/peer.js';

/**
 * create-cluster asks Octavia which provider the live kube-API load balancer really has before it
 * restricts it (lib/plan/kubeapi-live.ts): `GET /v2/lbaas/loadbalancers/{id}` against the real
 * Octavia of the test peer, and a 404 for an id Octavia does not know.
 */
const T = 120_000;
const OCTAVIA = 'http://127.0.0.1:9876';

describe('the kube-API load balancer\'s provider, from Octavia', () => {
  it('reads the provider of a load balancer by id; an unknown id is undefined, not an error', async () => {
    const env = readFileSync(path.join(peer().dir, 'peer.env'), 'utf8');
    const subnet = /^OS_PEER_PRIVATE_SUBNET_ID=(.+)$/m.exec(env)![1].trim();
    const cfg = resolveCloudConfig({ environ: { OS_CLIENT_CONFIG_FILE: peer().cloudsFile }, cwd: tempDir(), home: tempDir(), etcDir: tempDir(), cloudFlag: 'peer-demo-appcred' });
    const c = await connect(cfg, { logger: memoryLogger(true), timeoutMs: 30_000 });
    const cloud = openstackClusterCloud(c);
    const lb = await sqliteRetry(() => c.call<{ loadbalancer: { id: string } }>('load-balancer', OCTAVIA, {
      method: 'POST', path: '/v2/lbaas/loadbalancers', body: { loadbalancer: { name: 'k8s-clusterapi-cluster-peerapi-peerapi-kubeapi', vip_subnet_id: subnet, provider: 'ovn' } },
    }));
    const id = lb.data.loadbalancer.id;
    try {
      expect(await cloud.loadBalancerProvider(id)).toBe('ovn');
      expect(await cloud.loadBalancerProvider('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    } finally {
      for (let i = 0; i < 60; i++) {
        try {
          await cloud.deleteLoadBalancer(id);
          break;
        } catch {
          // PENDING_CREATE answers 409: wait until Octavia lets go.
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    }
  }, T);
});
