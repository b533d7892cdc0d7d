import { decided, refused, type Decision } from './decision.js';

/**
 * Which external network the cluster's router and floating IPs use. Pure: the cloud's external
 * networks (router:external) are passed in. `external_network` names one by name or ID; empty
 * means the cloud's only one. CAPO itself refuses several candidates; kaas refuses before
 * anything is created and names them.
 */

/** An external network as Neutron lists it. */
export interface ExternalNetwork {
  id: string;
  name: string;
}

const HINT = 'set external_network to the name or ID of an external network';
const names = (nets: ExternalNetwork[]) => nets.map((n) => n.name).sort().join(', ');

/** The network for the setting (name or ID, "" = the only one) among the cloud's external networks. */
export function chooseExternalNetwork(setting: string, networks: ExternalNetwork[]): Decision<ExternalNetwork> {
  if (setting) {
    const match = networks.filter((n) => n.id === setting || n.name === setting);
    if (match.length === 1) return decided(match[0], [`external network ${match[0].name} (${match[0].id}): named by external_network`]);
    return refused({
      message: `external network ${setting} ${match.length ? 'is ambiguous' : 'does not exist'} (external networks: ${names(networks) || 'none'})`,
      hint: HINT,
    });
  }
  if (networks.length === 1) return decided(networks[0], [`external network ${networks[0].name} (${networks[0].id}): the cloud's only one (external_network is empty)`]);
  if (!networks.length) {
    return refused({
      message: 'external_network is empty and the cloud has no external network: the cluster\'s router and floating IPs need one',
      hint: 'ask the cloud\'s operators for an external network (openstack network list --external), then set external_network to it',
    });
  }
  return refused({ message: `external_network is empty and the cloud has ${networks.length} external networks (${names(networks)}); name one`, hint: HINT });
}
