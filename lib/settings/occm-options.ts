/**
 * The cloud.conf [LoadBalancer] keys of OCCM (occm-loadbalancer-facts.md §2; cloud-provider-openstack
 * pkg/openstack/openstack.go). `occm_loadbalancer` may hold only these: OCCM reads cloud.conf with
 * gcfg FatalOnly, so a misspelt key is silently ignored there; kaas refuses it at validation.
 */
/** The known keys, in the order of the fact sheet. */
export const KNOWN_LB_OPTIONS = [
  'enabled', 'lb-provider', 'lb-method', 'lb-version', 'create-monitor', 'monitor-delay', 'monitor-timeout',
  'monitor-max-retries', 'monitor-max-retries-down', 'manage-security-groups', 'internal-lb', 'node-selector',
  'cascade-delete', 'floating-network-id', 'floating-subnet-id', 'floating-subnet', 'floating-subnet-tags', 'subnet-id',
  'member-subnet-id', 'network-id', 'flavor-id', 'availability-zone', 'enable-ingress-hostname',
  'ingress-hostname-suffix', 'max-shared-lb', 'container-store', 'default-tls-container-ref',
  'provider-requires-serial-api-calls',
];
