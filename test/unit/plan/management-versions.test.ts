import { judgeManagementVersions, managementUpgradeSteps } from '../../../lib/plan/management-versions.js';

const ORC = 'install ORC v2.6.0 (kubectl apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/v2.6.0/install.yaml): CAPO ≥ v0.12 resolves images through ORC and stops without it';
const core = (v: string) => `--core cluster-api:${v} --bootstrap kubeadm:${v} --control-plane kubeadm:${v}`;
const PATCH = ' (x = the newest patch release; clusterctl upgrade plan lists it)';
const TO_1_9 = `Cluster API to v1.9.x and CAPO to v0.11.x: clusterctl upgrade apply ${core('v1.9.x')} --infrastructure openstack:v0.11.x${PATCH} — CAPO v0.11 is the last release that still serves v1alpha7 (the SCS templates) and stores v1beta1; Cluster API v1.9 is what CAPO v0.12 needs`;
const TO_1_12 = `Cluster API to v1.12.x and CAPO to v0.14.7: clusterctl upgrade apply ${core('v1.12.x')} --infrastructure openstack:v0.14.7${PATCH} — CAPO v0.14 needs Cluster API ≥ v1.12; Cluster API moves to the v1beta2 contract here`;
const TO_1_14 = `Cluster API to v1.14.2: clusterctl upgrade apply ${core('v1.14.2')} — the current Cluster API release`;

describe('managementUpgradeSteps: from the SCS scripts’ providers to Cluster API v1.14 + CAPO v0.14, ORC first, at most three Cluster API minors per step', () => {
  it.each<[string, { capi?: string; capo?: string; orcInstalled?: boolean }, string[]]>([
    ['SCS default (CAPI 1.6.3, CAPO 0.9.0)', { capi: '1.6.3', capo: '0.9.0' }, [TO_1_9, ORC, TO_1_12, TO_1_14]],
    ['CAPI 1.8 + CAPO 0.11 (the newest SCS scripts)', { capi: 'v1.8.5', capo: 'v0.11.3' }, [TO_1_9.replace(' and CAPO to v0.11.x', '').replace(' --infrastructure openstack:v0.11.x', ''), ORC, TO_1_12, TO_1_14]],
    ['CAPI 1.9 + CAPO 0.12 with ORC', { capi: 'v1.9.5', capo: 'v0.12.4', orcInstalled: true }, [TO_1_12, TO_1_14]],
    ['CAPI 1.12 + CAPO 0.14: only the current release is left', { capi: 'v1.12.10', capo: 'v0.14.7' }, [TO_1_14]],
    ['CAPI 1.14 + CAPO 0.14: nothing to do', { capi: 'v1.14.2', capo: 'v0.14.7' }, []],
    ['unknown versions count as the oldest', {}, [TO_1_9, ORC, TO_1_12, TO_1_14]],
  ])('%s', (_n, from, steps) => {
    expect(managementUpgradeSteps(from)).toEqual(steps);
  });

  it('every step names the management kubeconfig', () => {
    expect(managementUpgradeSteps({ capi: 'v1.13.0', capo: 'v0.14.7' }, '/m/kc')).toEqual([TO_1_14.replace(' — the', ' --kubeconfig /m/kc — the')]);
  });
});

describe('judgeManagementVersions: Cluster API v1.12–v1.14 with CAPO v0.14 are accepted, v1.12 with its end of life', () => {
  it.each<[string, string, 'ok' | 'refused', RegExp]>([
    ['v1.12.10', 'v0.14.7', 'ok', /reaches end of life on 2026-12-08 \(when Cluster API v1\.15\.0 ships\): upgrade to v1\.14\.2 with clusterctl upgrade apply --core cluster-api:v1\.14\.2/],
    ['v1.13.6', 'v0.14.7', 'ok', /^Cluster API v1\.13\.6, CAPO v0\.14\.7 \(supported: Cluster API v1\.12–v1\.14 with CAPO v0\.14\.x\)$/],
    ['v1.14.2', 'v0.14.0', 'ok', /^Cluster API v1\.14\.2, CAPO v0\.14\.0 \(supported/],
    ['v1.11.4', 'v0.13.2', 'refused', /Cluster API v1\.11\.4 is older than kaas supports; CAPO v0\.13\.2 is older than kaas supports .* \(1\) Cluster API to v1\.12\.x and CAPO to v0\.14\.7/],
    ['v1.8.5', 'v0.11.3', 'refused', /\(1\) Cluster API to v1\.9\.x: .*\(2\) install ORC v2\.6\.0 .*\(3\) Cluster API to v1\.12\.x and CAPO to v0\.14\.7: .*\(4\) Cluster API to v1\.14\.2/],
    ['v1.15.0', 'v0.14.7', 'refused', /newer than this kaas supports .* lists v1\.15 as supported/],
    ['v1.14.2', 'v0.15.0', 'refused', /newer than this kaas supports .* lists v0\.15 as supported/],
    ['main', 'v0.14.7', 'refused', /cannot read the provider versions \(Cluster API "main"/],
  ])('Cluster API %s + CAPO %s → %s', (capi, capo, verdict, says) => {
    const v = judgeManagementVersions(capi, capo);
    expect(verdict === 'ok' ? v.ok : v.problem).toMatch(says);
    expect(verdict === 'ok' ? v.problem : v.ok).toBeUndefined();
  });

  it('v1.13 and v1.14 carry no end-of-life note', () => {
    expect(judgeManagementVersions('v1.13.6', 'v0.14.7').ok).not.toMatch(/end of life/);
  });
});
