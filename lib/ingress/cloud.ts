import { KaasError } from '../errors.js';
import type { Logger } from '../log.js';
import { resolveCloudConfig, type CloudConfig } from '../openstack/cloud-config.js';
import type { Connection } from '../openstack/connection.js';
import type { Capabilities } from '../openstack/types.js';
import type { CloudSnapshot } from '../openstack/snapshot.js';

/**
 * What apply-ingress asks of the cloud, behind one small interface so that planning offline
 * (use_ovn_lb_provider false, or --capabilities) never touches it and tests can inject answers.
 * One Keystone token per run, made on first use.
 */
export interface IngressCloud {
  /** The cloud's credentials for cloud.conf [Global]; `problem` says why there are none (`error`: the error itself). */
  credentials(): { cloud?: CloudConfig; problem?: string; error?: KaasError };
  /** Detects Octavia/OVN capabilities (lib/openstack/detect.ts). */
  capabilities(): Promise<Capabilities>;
  /** The VIP address of the Octavia LB with this exact name; undefined when there is no such LB. */
  loadBalancerVip(name: string): Promise<string | undefined>;
  /** The LB with this exact name in full (listeners, pools, monitors, members, VIP floating IPs), for the post-apply verification. */
  loadBalancerSnapshot?(name: string): Promise<CloudSnapshot>;
}

/** Where the cloud is configured (clouds.yaml search, OS_* variables). */
export interface IngressCloudOptions {
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  /** The `cloud` setting (clouds.yaml entry); empty = OS_CLOUD / OS_* variables. */
  cloudSetting?: string;
  /** A run that changes things: the only clouds.yaml entry is not taken unless named (cloud-config.ts onlyEntryVerdict). */
  mutating: boolean;
  logger: Logger;
  timeoutMs?: number;
}

/** The production IngressCloud over lib/openstack. */
export function createIngressCloud(o: IngressCloudOptions): IngressCloud {
  let conn: Promise<Connection> | undefined;
  let resolved: CloudConfig | undefined;
  // Once per run: the note on an implicitly chosen cloud is said once.
  const resolve = () => (resolved ??= resolveCloudConfig({
    environ: o.environ, cwd: o.cwd, home: o.home, cloudSetting: o.cloudSetting || undefined, mutating: o.mutating, note: (m) => o.logger.info(m),
  }));
  // The HTTP stack (axios) loads only when the cloud is really asked: offline dry-runs stay fast.
  const connection = () =>
    (conn ??= import('../openstack/connection.js').then(({ connect }) => connect(resolve(), { logger: o.logger, timeoutMs: o.timeoutMs })));
  return {
    credentials() {
      try {
        return { cloud: resolve() };
      } catch (e) {
        if (e instanceof KaasError) return { problem: e.message, error: e };
        throw e;
      }
    },
    async capabilities() {
      const { detectCapabilities } = await import('../openstack/detect.js');
      return detectCapabilities(await connection());
    },
    async loadBalancerVip(name) {
      const c = await connection();
      const { findLoadBalancer, octaviaRoot } = await import('../openstack/octavia.js');
      const ep = c.endpoint('load-balancer');
      if (!ep.found) throw new KaasError(`cannot look up the load balancer: ${ep.reason}`);
      return (await findLoadBalancer(c, octaviaRoot(ep.url), name))?.vip_address;
    },
    async loadBalancerSnapshot(name) {
      const { fetchLoadBalancerSnapshot } = await import('../checks/fetch-cloud.js');
      return fetchLoadBalancerSnapshot(await connection(), name);
    },
  };
}
