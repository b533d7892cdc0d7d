import { chooseExternalNetwork, type ExternalNetwork } from '../../../lib/plan/external-network.js';

const PUBLIC = { id: '5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa', name: 'public' };
const EXT01 = { id: '0f3b1c2d-0000-4000-8000-000000000001', name: 'ext01' };
const TWIN = { id: '0f3b1c2d-0000-4000-8000-000000000002', name: 'ext01' };
const HINT = 'set external_network to the name or ID of an external network';

describe('chooseExternalNetwork: the network for the router and floating IPs', () => {
  it.each<[string, string, ExternalNetwork[], ExternalNetwork, string]>([
    ['named by name', 'public', [EXT01, PUBLIC], PUBLIC, 'external network public (5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa): named by external_network'],
    ['named by ID', EXT01.id, [PUBLIC, EXT01], EXT01, `external network ext01 (${EXT01.id}): named by external_network`],
    ['an ID picks one of two networks with the same name', TWIN.id, [EXT01, TWIN], TWIN, `external network ext01 (${TWIN.id}): named by external_network`],
    ['empty setting, exactly one network', '', [PUBLIC], PUBLIC, "external network public (5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa): the cloud's only one (external_network is empty)"],
  ])('%s', (_n, setting, nets, want, reason) => {
    expect(chooseExternalNetwork(setting, nets)).toEqual({ ok: true, value: want, reasons: [reason], warnings: [] });
  });

  it.each<[string, string, ExternalNetwork[], string, string]>([
    ['a name that does not exist', 'nope', [PUBLIC, EXT01], 'external network nope does not exist (external networks: ext01, public)', HINT],
    ['a name on a cloud without external networks', 'public', [], 'external network public does not exist (external networks: none)', HINT],
    ['a name two networks share', 'ext01', [EXT01, PUBLIC, TWIN], 'external network ext01 is ambiguous (external networks: ext01, ext01, public)', HINT],
    ['empty setting, several networks', '', [PUBLIC, EXT01], 'external_network is empty and the cloud has 2 external networks (ext01, public); name one', HINT],
    ['empty setting, no network', '', [], "external_network is empty and the cloud has no external network: the cluster's router and floating IPs need one",
      "ask the cloud's operators for an external network (openstack network list --external), then set external_network to it"],
  ])('refused: %s', (_n, setting, nets, message, hint) => {
    expect(chooseExternalNetwork(setting, nets)).toEqual({ ok: false, reasons: [], refusals: [{ message, hint }] });
  });
});
