import YAML from 'yaml';
import { PlanError } from '../errors.js';
import type { CloudConfig } from '../openstack/cloud-config.js';
import type { ClusterIdentity } from '../plan/cluster-model.js';

/**
 * The clouds.yaml that CAPO (identityRef) reads from the management cluster. Only an application
 * credential goes there: it can be revoked per cluster and does not hold the user's password.
 */
export function clusterIdentity(cloud: CloudConfig, cloudName: string, readFile: (p: string) => string): ClusterIdentity {
  const a = cloud.auth;
  if (a.kind !== 'application_credential') {
    throw new PlanError(`cloud "${cloud.name}" authenticates with a password; kaas puts only application credentials into the management cluster`, {
      hint: `create one and use it: openstack application credential create kaas-<cluster>, then a clouds.yaml entry with auth_type: v3applicationcredential`,
    });
  }
  const auth: Record<string, string> = { auth_url: a.authUrl };
  if (a.applicationCredentialId) auth.application_credential_id = a.applicationCredentialId;
  else {
    auth.application_credential_name = a.applicationCredentialName ?? '';
    if (a.userId) auth.user_id = a.userId;
    if (a.username) auth.username = a.username;
    if (a.userDomainName) auth.user_domain_name = a.userDomainName;
    if (a.userDomainId) auth.user_domain_id = a.userDomainId;
  }
  auth.application_credential_secret = a.applicationCredentialSecret ?? '';
  const entry: Record<string, unknown> = { auth, auth_type: 'v3applicationcredential', interface: cloud.interface, identity_api_version: 3 };
  if (cloud.regionName) entry.region_name = cloud.regionName;
  if (!cloud.verify) entry.verify = false;
  let cacert: string | undefined;
  if (cloud.cacert && cloud.verify) {
    try {
      cacert = readFile(cloud.cacert);
    } catch (e) {
      throw new PlanError(`cacert ${cloud.cacert} of cloud "${cloud.name}" cannot be read: ${(e as Error).message}`, { hint: 'point cacert at a readable PEM file' });
    }
  }
  return { cloudsYaml: YAML.stringify({ clouds: { [cloudName]: entry } }), cacert };
}
