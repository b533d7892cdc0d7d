import { controlPlaneStatus, machineDeploymentStatus, pendingConditions, rolledOut } from '../../../lib/kube/cluster-api.js';
import type { Kubectl } from '../../../lib/kube/kubectl.js';

/** A kubectl that answers one object per versioned resource (what the real server returned on the testbed, trimmed). */
const kubectlWith = (objects: Record<string, unknown>): Kubectl & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    getJson: async (kind: string) => {
      asked.push(kind);
      return objects[kind];
    },
  } as unknown as Kubectl & { asked: string[] };
};

/** The v1beta2 status of a new KubeadmControlPlane as CAPI v1.12 wrote it on the testbed. */
const PENDING_KCP = {
  metadata: { generation: 1 },
  spec: { replicas: 1, version: 'v1.34.10' },
  status: {
    replicas: 1, readyReplicas: 0, availableReplicas: 0, upToDateReplicas: 1, version: 'v1.34.10',
    conditions: [
      { type: 'Available', status: 'False', reason: 'NotAvailable', message: 'Control plane not yet initialized' },
      { type: 'CertificatesAvailable', status: 'True', reason: 'Available', message: '' },
      { type: 'Initialized', status: 'False', reason: 'NotInitialized', message: '' },
      { type: 'EtcdClusterHealthy', status: 'Unknown', reason: 'InspectionFailed', message: 'Waiting for Cluster control plane to be initialized' },
      { type: 'RollingOut', status: 'False', reason: 'NotRollingOut', message: '' },
      { type: 'ScalingUp', status: 'False', reason: 'NotScalingUp', message: '' },
      { type: 'Paused', status: 'False', reason: 'NotPaused', message: '' },
      { type: 'Deleting', status: 'False', reason: 'NotDeleting', message: '' },
    ],
    // The v1beta1 view's counts: not what kaas reads.
    deprecated: { v1beta1: { readyReplicas: 5, updatedReplicas: 5, unavailableReplicas: 0 } },
  },
};

describe('the v1beta2 status kaas waits on', () => {
  it.each<[string, { type: string; status: string; reason?: string; message?: string }[], string[]]>([
    ['positive conditions False say why', [{ type: 'Available', status: 'False', message: 'Control plane not yet initialized' }, { type: 'Ready', status: 'True' }], ['Available: Control plane not yet initialized']],
    ['negative conditions True say why (RollingOut, ScalingUp, ScalingDown, Remediating)', [
      { type: 'RollingOut', status: 'True', message: 'Rolling out 1 not up-to-date replicas' }, { type: 'ScalingUp', status: 'True', message: 'Scaling up from 1 to 2 replicas' },
      { type: 'ScalingDown', status: 'False' }, { type: 'Remediating', status: 'True', reason: 'Remediating' },
    ], ['RollingOut: Rolling out 1 not up-to-date replicas', 'ScalingUp: Scaling up from 1 to 2 replicas', 'Remediating: Remediating']],
    ['settled negative conditions (False) and Unknown ones are not listed', [{ type: 'RollingOut', status: 'False' }, { type: 'Paused', status: 'False' }, { type: 'EtcdClusterHealthy', status: 'Unknown' }], []],
    ['a multi-line message is cut to its first line', [{ type: 'MachinesReady', status: 'False', message: '* Machine a:\n  * NodeHealthy: waiting' }], ['MachinesReady: * Machine a:']],
  ])('%s', (_n, conditions, notes) => {
    expect(pendingConditions(conditions)).toEqual(notes);
  });

  it('a new control plane: read as v1beta2, not initialized, not rolled out; the deprecated v1beta1 counts are ignored', async () => {
    const k = kubectlWith({ 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io': PENDING_KCP });
    const st = await controlPlaneStatus(k, 'demo-control-plane', 'demo');
    expect(k.asked).toEqual(['kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io']);
    expect(st).toMatchObject({ initialized: false, readyReplicas: 0, upToDateReplicas: 1, version: 'v1.34.10', notes: ['Available: Control plane not yet initialized', 'Initialized: NotInitialized'] });
    expect(rolledOut(st)).toBe(false);
  });

  it('initialized and rolled out from status.initialization and the v1beta2 counts', async () => {
    const done = { ...PENDING_KCP, status: { ...PENDING_KCP.status, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1, initialization: { controlPlaneInitialized: true }, conditions: [] } };
    const st = await controlPlaneStatus(kubectlWith({ 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io': done }), 'demo-control-plane', 'demo');
    expect(st.initialized).toBe(true);
    expect(rolledOut(st)).toBe(true);
  });

  it('a MachineDeployment with machines not yet up to date is not rolled out', async () => {
    const md = { metadata: { generation: 2 }, spec: { replicas: 2 }, status: { observedGeneration: 2, replicas: 3, readyReplicas: 2, upToDateReplicas: 1 } };
    const k = kubectlWith({ 'machinedeployments.v1beta2.cluster.x-k8s.io': md });
    const st = await machineDeploymentStatus(k, 'demo-md-0', 'demo');
    expect(st).toMatchObject({ replicas: 2, readyReplicas: 2, upToDateReplicas: 1, currentReplicas: 3, observed: true });
    expect(rolledOut(st)).toBe(false);
    expect(rolledOut({ ...st, upToDateReplicas: 2, currentReplicas: 2 })).toBe(true);
  });
});
