import { resolveCloudConfig } from '../../../lib/openstack/cloud-config.js';
import { connect } from '../../../lib/openstack/connection.js';
import { detectCapabilities } from '../../../lib/openstack/detect.js';
import { HttpError } from '../../../lib/openstack/http-error.js';
import { listLoadBalancers } from '../../../lib/openstack/octavia.js';
import { memoryLogger } from '../../../lib/log.js';
import { peer, withPeer } from '../../support/peer.js';
import { recordPrinted } from '../../support/printed.js';
import { tempDir } from '../../support/cli.js';

/** Resolves a cloud of the peer's clouds.yaml the way `kaas` does, with a clean env. */
function peerCloud(name: string, environ: NodeJS.ProcessEnv = {}) {
  const p = peer();
  return resolveCloudConfig({ environ: { OS_CLIENT_CONFIG_FILE: p.cloudsFile, ...environ }, cwd: tempDir(), home: tempDir(), etcDir: tempDir(), cloudFlag: name || undefined });
}

async function detectOn(cloud: ReturnType<typeof peerCloud>) {
  const logger = memoryLogger(true);
  try {
    return await withPeer(async () => {
      const conn = await connect(cloud, { logger, timeoutMs: 20_000 });
      const caps = await detectCapabilities(conn);
      return { conn, caps, logger };
    });
  } finally {
    recordPrinted(`detect ${cloud.name}`, logger.lines.join('\n'), peer().secrets);
  }
}

describe('the real Keystone and Octavia (test peer)', () => {
  it.each(['peer-demo', 'peer-demo-appcred', 'peer-demo-appcred-name'])('%s: authenticates and finds Octavia v2.26 with amphora and ovn', async (name) => {
    const { conn, caps } = await detectOn(peerCloud(name));
    expect(conn.session.projectId).toBe(peer().demoProjectId);
    expect(conn.endpoint('load-balancer')).toEqual({ found: true, url: 'http://127.0.0.1:9876' });
    expect(caps.octavia).toMatchObject({ present: true, maxVersion: '2.26', providers: ['amphora', 'ovn'], wallabyOrLater: true, allowedCidrs: true });
    expect(caps.neutron.externalNetworks?.map((n) => n.name)).toEqual(['public']);
    // One token, then at most 3 requests for the LB plan.
    expect(conn.http.stats.requests).toBe(4);
  });

  it('plain OS_* variables work like a clouds.yaml entry', async () => {
    const p = peer();
    const cloud = resolveCloudConfig({
      environ: {
        OS_AUTH_URL: p.authUrl, OS_USERNAME: 'demo', OS_PASSWORD: p.demoPassword, OS_PROJECT_NAME: 'demo',
        OS_USER_DOMAIN_NAME: 'Default', OS_PROJECT_DOMAIN_NAME: 'Default', OS_REGION_NAME: 'RegionOne',
      },
      cwd: tempDir(), home: tempDir(), etcDir: tempDir(),
    });
    const { caps } = await detectOn(cloud);
    expect(caps.cloud).toBe('envvars');
    expect(caps.octavia.maxVersion).toBe('2.26');
  });

  it('region RegionNoOvn: the Octavia there offers only amphora', async () => {
    const { caps } = await detectOn(peerCloud('peer-demo-noovn'));
    expect(caps.octavia).toMatchObject({ present: true, providers: ['amphora'], endpoint: 'http://127.0.0.1:9877' });
  });

  it('region RegionBare: services missing from the catalog are answers with reasons', async () => {
    const { caps, conn } = await detectOn(peerCloud('peer-demo-bare'));
    expect(caps.octavia.present).toBe(false);
    expect(caps.octavia.reason).toBe('the "load-balancer" service has no public endpoint in region RegionBare (regions: RegionNoOvn, RegionOne)');
    expect(caps.neutron.present).toBe(false);
    expect(conn.http.stats.requests).toBe(1);
  });

  it('the load balancer list answers (used by later issues)', async () => {
    const { conn } = await detectOn(peerCloud('peer-demo'));
    await expect(listLoadBalancers(conn, 'http://127.0.0.1:9876', 'kaas-no-such-lb')).resolves.toEqual([]);
  });

  it.each([
    ['application credential secret', { OS_APPLICATION_CREDENTIAL_ID: 'x', OS_APPLICATION_CREDENTIAL_SECRET: 'wrong-appcred-secret' }],
    ['password', { OS_USERNAME: 'demo', OS_PASSWORD: 'wrong-password-42', OS_PROJECT_NAME: 'demo' }],
  ] as [string, Record<string, string>][])('a wrong %s → 401 with a credentials hint, no secret in the message', async (_what, vars) => {
    const p = peer();
    const cloud = resolveCloudConfig({ environ: { OS_AUTH_URL: p.authUrl, ...vars }, cwd: tempDir(), home: tempDir(), etcDir: tempDir() });
    if (vars.OS_APPLICATION_CREDENTIAL_ID) cloud.auth.applicationCredentialId = p.appcredId;
    const err = (await detectOn(cloud).catch((e) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(401);
    expect(err.hint).toMatch(/^check the credentials of cloud "envvars"/);
    expect(err.requestId).toMatch(/^req-/);
    const secret = Object.values(vars).find((v) => v.startsWith('wrong-'))!;
    recordPrinted('401 error', `${err.message}\n${err.hint}`, [secret]);
    expect(err.message).not.toContain(secret);
  });
});
