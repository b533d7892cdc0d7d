import { decided, refused, type Decision } from './decision.js';

/**
 * Which service-selection flags the Cinder CSI plugin gets. cloud-provider-openstack added
 * `--provide-controller-service` / `--provide-node-service` in PR #2316 (merged 2024-02, first
 * released in v1.30.0; later cherry-picked into some v1.28/v1.29 patch releases, so those are
 * treated as not having them). The plugin parses its flags strictly: an unknown flag stops the
 * container, so an older plugin must get the older form — both services in one binary, the
 * controller told apart only by `--cluster`.
 */

/** First cloud-provider-openstack release whose cinder-csi-plugin knows the service flags. */
export const CSI_SERVICE_FLAGS_SINCE: readonly [number, number] = [1, 30];

/** Extra arguments of the cinder-csi-plugin container in the controller Deployment and the node DaemonSet. */
export interface CinderCsiServiceFlags {
  controller: string[];
  node: string[];
}

/** The service flags for a plugin version ("v1.33.0"). Refused when the version cannot be read. */
export function cinderCsiServiceFlags(version: string): Decision<CinderCsiServiceFlags> {
  const m = /^v?(\d+)\.(\d+)\.\d+/.exec(version);
  if (!m) {
    return refused({
      message: `cinder-csi-plugin version "${version}" is not a release version (vX.Y.Z): kaas cannot tell which flags it knows`,
      hint: 'set deploy_cindercsi to true (the version matching kubernetes_version) or to a release such as v1.33.0',
    });
  }
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const [sinceMajor, sinceMinor] = CSI_SERVICE_FLAGS_SINCE;
  if (major > sinceMajor || (major === sinceMajor && minor >= sinceMinor)) {
    return decided(
      { controller: ['--provide-node-service=false'], node: ['--provide-controller-service=false'] },
      [`Cinder CSI ${version}: controller and node plugins each run only their own service (--provide-*-service, since v1.30.0).`],
    );
  }
  return decided(
    { controller: [], node: [] },
    [`Cinder CSI ${version} predates --provide-controller-service/--provide-node-service (v1.30.0): both plugins get the older arguments.`],
  );
}
