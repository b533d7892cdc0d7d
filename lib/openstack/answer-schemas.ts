/**
 * JSON Schemas of the OpenStack list entries kaas reads: only the fields it uses, each with the type
 * the API reference gives it (Octavia api-ref v2 "List Load Balancers" …, Neutron api-ref v2.0
 * "List ports" …). Any other field is let through. An entry that is not an object, lacks an `id`, or
 * has a used field of another type is refused at the boundary (answer-check.ts) instead of becoming
 * "Cannot read properties of null" deep inside a check, or a check that silently finds nothing.
 * Pure data: validated by ajv at run time (answer-validators.ts) or precompiled by the build.
 */

/** A JSON schema. */
export type AnswerSchema = Record<string, unknown>;

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const int = { type: 'integer' };
const refs = { type: 'array', items: { type: 'object', required: ['id'], properties: { id: str } } };

function entry(required: string[], properties: Record<string, unknown>): AnswerSchema {
  return { type: 'object', required: ['id', ...required], properties: { id: str, ...properties } };
}

/** Schema of one entry of each list, by the list's key in the answer (`loadbalancers`, `ports`, …). */
export const ANSWER_SCHEMAS: Record<string, AnswerSchema> = {
  // Octavia
  versions: { type: 'object', required: ['id'], properties: { id: str, status: str } },
  providers: { type: 'object', required: ['name'], properties: { name: str, description: strOrNull } },
  loadbalancers: entry([], {
    name: strOrNull, provider: strOrNull, vip_address: strOrNull, vip_port_id: strOrNull, vip_network_id: strOrNull,
    provisioning_status: str, operating_status: str, project_id: strOrNull, listeners: refs, pools: refs,
  }),
  listeners: entry(['protocol', 'protocol_port'], {
    name: strOrNull, protocol: str, protocol_port: int, default_pool_id: strOrNull, loadbalancers: refs,
    allowed_cidrs: { type: ['array', 'null'], items: str }, provisioning_status: str, operating_status: str,
  }),
  pools: entry(['protocol', 'lb_algorithm'], {
    name: strOrNull, protocol: str, lb_algorithm: str, healthmonitor_id: strOrNull, loadbalancers: refs, listeners: refs, members: refs,
    provisioning_status: str, operating_status: str,
  }),
  healthmonitors: entry(['type'], { name: strOrNull, type: str, pools: refs, provisioning_status: str, operating_status: str }),
  members: entry(['address', 'protocol_port'], {
    name: strOrNull, address: str, protocol_port: int, monitor_port: { type: ['integer', 'null'] }, provisioning_status: str, operating_status: str,
  }),
  // Neutron
  networks: entry([], { name: strOrNull, 'router:external': { type: 'boolean' }, mtu: int, project_id: strOrNull }),
  floatingips: entry(['floating_ip_address'], {
    floating_ip_address: str, fixed_ip_address: strOrNull, port_id: strOrNull, floating_network_id: str, project_id: strOrNull, description: strOrNull, status: str,
  }),
  ports: entry([], {
    name: strOrNull, device_id: strOrNull, device_owner: strOrNull, network_id: str, project_id: strOrNull,
    fixed_ips: { type: 'array', items: { type: 'object', properties: { subnet_id: str, ip_address: str } } },
  }),
  security_groups: entry([], { name: strOrNull, description: strOrNull, project_id: strOrNull }),
  // Nova
  servers: entry([], { name: strOrNull, status: str, addresses: { type: 'object', additionalProperties: { type: 'array', items: { type: 'object', properties: { addr: str } } } } }),
  flavors: entry([], { name: strOrNull, vcpus: int, ram: int, disk: int }),
  server_groups: entry([], { name: strOrNull, policy: strOrNull, policies: { type: 'array', items: str }, members: { type: 'array', items: str } }),
};

/** Schema of a `<key>_links` list (Octavia and Neutron pagination): objects with string href and rel. */
export const LINKS_SCHEMA: AnswerSchema = {
  type: 'array', items: { type: 'object', required: ['href', 'rel'], properties: { href: str, rel: str } },
};

/** ajv's options for the answer validators (the build compiles with the same ones). */
export const ANSWER_AJV_OPTIONS = { allErrors: false, strict: false } as const;
