import type { Settings } from '../settings/types.js';
import { decided, refused, type Decision } from './decision.js';

/**
 * The Service load-balancer provider of a cluster that already runs (review M2). OCCM sets the
 * provider only when it creates a load balancer (cloud-provider-openstack v1.33.0
 * pkg/openstack/loadbalancer.go:234), but on every sync updates a pool whose lb_algorithm differs
 * from cloud.conf's lb-method (:905-920): after a switch, every existing amphora LB is asked for
 * OVN's SOURCE_IP_PORT (and every OVN LB for ROUND_ROBIN), which the provider rejects. So:
 * - `auto` keeps the provider the live cloud.conf names (the cloud's capabilities may have changed
 *   since; the cluster's load balancers have not);
 * - an explicit switch goes ahead only when no LoadBalancer Service exists, or with
 *   `--recreate-edge-services` when the only ones are kaas's edge Services (they are deleted and
 *   made again by the new provider: new addresses); otherwise it is refused before anything is applied.
 */

/** What the workload cluster says (undefined: a new cluster, or one that cannot be read). */
export interface LiveEdge {
  /** The provider in the live cloud.conf (`lb-provider`, unset = amphora). */
  provider: string;
  /** LoadBalancer Services, `namespace/name`. */
  lbServices: string[];
  /** Those of them kaas's edge made (ingress-nginx's controller, the envoy Services of the Gateway). */
  edgeServices: string[];
}

/** The verdict: the provider to plan with, and the edge Services to re-create before the edge is applied. */
export interface ProviderPin {
  /** use_ovn_lb_provider to plan with (the setting, or the live provider under auto). */
  useOvn: Settings['use_ovn_lb_provider'];
  recreate: string[];
}

const isOvn = (p: string) => p === 'ovn';

/**
 * Decides; `planned` is the provider the setting and the cloud give now, `offered` the providers the
 * cloud offers (undefined: not read). Pure.
 */
export function pinProvider(setting: Settings['use_ovn_lb_provider'], planned: string, live: LiveEdge | undefined, recreateEdge: boolean, offered?: string[]): Decision<ProviderPin> {
  const keep: ProviderPin = { useOvn: setting, recreate: [] };
  if (!live) return decided(keep);
  if (isOvn(live.provider) === isOvn(planned)) return decided(keep, []);
  if (setting === 'auto' && isOvn(live.provider) && offered && !offered.includes('ovn')) {
    // auto cannot keep a provider the cloud does not offer: planning "ovn" would be refused as if the user
    // had set true. Most often the settings name another cloud or region than the cluster runs on.
    return refused({
      message: `use_ovn_lb_provider is auto and the cluster's Service load balancers run on ovn (its cloud.conf), but this cloud does not offer the ovn provider (offered: ${offered.join(', ') || 'none'})`,
      problems: [
        'auto keeps the provider a running cluster uses, and cannot keep one the cloud does not offer',
        'the settings may name another cloud or region_name than the one the cluster runs on',
      ],
      hint: `check the settings' cloud and its region_name; to move the Services to ${planned}, set use_ovn_lb_provider: false (kaas's edge Services are re-created with --recreate-edge-services)`,
    });
  }
  if (setting === 'auto') {
    return decided({ useOvn: isOvn(live.provider), recreate: [] }, [
      `use_ovn_lb_provider: auto keeps the provider the cluster runs (${live.provider}, from its cloud.conf); on this cloud auto would now pick ${planned}, which would break the existing Service load balancers (set use_ovn_lb_provider explicitly to switch)`,
    ]);
  }
  const from = `${live.provider} → ${planned}`;
  if (live.lbServices.length === 0) return decided(keep, [`Service load-balancer provider switched (${from}): no LoadBalancer Service exists yet`]);
  const others = live.lbServices.filter((x) => !live.edgeServices.includes(x));
  if (recreateEdge && others.length === 0) {
    return decided({ useOvn: setting, recreate: [...live.edgeServices] }, [
      `Service load-balancer provider switched (${from}): the edge Services ${live.edgeServices.join(', ')} are re-created and get new load balancers and addresses (--recreate-edge-services)`,
    ]);
  }
  return refused({
    message: `use_ovn_lb_provider switches the Service load-balancer provider (${from}) while LoadBalancer Services exist: OCCM keeps each existing load balancer on ${live.provider} but would set the new lb-method on its pools, which ${live.provider} rejects`,
    problems: live.lbServices.map((x) => `${x}${live.edgeServices.includes(x) ? ' (kaas edge)' : ''}`),
    hint: others.length === 0
      ? `run again with --recreate-edge-services (the edge Services get new addresses; update DNS), or set use_ovn_lb_provider back to ${isOvn(live.provider)} or auto`
      : `delete or re-create these Services yourself after the switch (${others.join(', ')} are not kaas's), or set use_ovn_lb_provider back to ${isOvn(live.provider)} or auto`,
  });
}
