/**
 * Names of ingress-nginx's objects in the upstream manifests kaas deploys. They live below the
 * folders that need them (ingress renders them; doctor's checks, the cluster's edge state and the
 * live reads look them up), so that none of those imports another for a name.
 */

/** Namespace of every namespaced object in the upstream manifests. */
export const INGRESS_NAMESPACE = 'ingress-nginx';
/** The LoadBalancer Service (OCCM names its Octavia LB after it). */
export const CONTROLLER_SERVICE = 'ingress-nginx-controller';
/** The controller ConfigMap (use-proxy-protocol, proxy-real-ip-cidr). */
export const CONTROLLER_CONFIGMAP = 'ingress-nginx-controller';
/** The controller Deployment (rollout waited for). */
export const CONTROLLER_DEPLOYMENT = 'ingress-nginx-controller';
