/**
 * The names of OCCM's objects as create-cluster deploys them (templates/addons/occm.yaml.hbs): read by
 * the apply steps (which check OCCM's live config), the live reads of a cluster and doctor alike.
 */

/** The OCCM cloud config kaas and create-cluster write (kube-system/cloud-config, key cloud.conf). */
export const OCCM_SECRET = { namespace: 'kube-system', name: 'cloud-config', key: 'cloud.conf' };
/** OCCM's DaemonSet as create-cluster deploys it (templates/addons/occm.yaml.hbs). */
export const OCCM_DAEMONSET = 'openstack-cloud-controller-manager';
