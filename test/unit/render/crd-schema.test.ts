import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { compileCrdSchema } from '../../../lib/render/crd-compile.js';
import { closeObjects, crdSchemas, validateCustomResources, type Schema } from '../../../lib/render/crd-schema.js';
import type { KubeObject } from '../../../lib/render/documents.js';
import { RenderError } from '../../../lib/render/template.js';
import { REFERENCE_DIR } from '../../support/reference.js';

/**
 * CRD validation as the API server does it with strict field validation, checked against the CRD
 * manifests upstream publishes (../shared/reference, read with yaml, not with the code under test).
 * Each test compiles the schema it needs: a validator cached across tests would hide a broken compile
 * from the tests that did not build it.
 */
const REFERENCE = REFERENCE_DIR;
const parsed = new Map<string, KubeObject>();
/** An upstream CRD manifest, parsed when a test first needs it (the mutation runs load this file for every mutant). */
const upstream = (rel: string): KubeObject => {
  if (!parsed.has(rel)) parsed.set(rel, parse(readFileSync(path.join(REFERENCE, rel), 'utf8')) as KubeObject);
  return parsed.get(rel)!;
};

const MD_CRD = 'capi/v1.12.11/cluster.x-k8s.io_machinedeployments.yaml';
const CLUSTER_CRD = 'capi/v1.12.11/cluster.x-k8s.io_clusters.yaml';
const KCP_CRD = 'capi/v1.12.11/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml';
const OSC_CRD = 'capo/v0.14.7/infrastructure.cluster.x-k8s.io_openstackclusters.yaml';

/** The validator lookup kaas builds from the served versions of upstream CRDs (each compiled when looked up). */
function validators(...crds: string[]) {
  const schemas = new Map(crds.flatMap((rel) => crdSchemas(upstream(rel))));
  return (key: string) => {
    const schema = schemas.get(key);
    return schema && compileCrdSchema(schema);
  };
}

/** The problems validateCustomResources reports for `objects` ([] when it accepts them). */
function problemsOf(objects: KubeObject[], ...crds: string[]): string[] {
  try {
    validateCustomResources(objects, validators(...crds), 'rendered objects');
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(RenderError);
    return (e as RenderError).problems;
  }
}

const md = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment', metadata: { name: 'demo-md-0', namespace: 'demo', ...metadata },
  spec: {
    clusterName: 'demo', replicas: 2, selector: { matchLabels: {} },
    template: {
      spec: {
        clusterName: 'demo', version: 'v1.33.4',
        bootstrap: { configRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1', kind: 'KubeadmConfigTemplate', name: 'demo-md-0-a' } },
        infrastructureRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'demo-md-0-b' },
      },
    },
    ...spec,
  },
});

describe('CRD schemas of a CRD manifest', () => {
  it.each<[string, string, string[]]>([
    ['CAPI Cluster: v1alpha3 and v1alpha4 are no longer served', CLUSTER_CRD, ['cluster.x-k8s.io/v1beta1/Cluster', 'cluster.x-k8s.io/v1beta2/Cluster']],
    ['CAPO v0.12 OpenStackCluster: v1alpha7 is no longer served', 'capo/v0.12.7/infrastructure.cluster.x-k8s.io_openstackclusters.yaml',
      ['infrastructure.cluster.x-k8s.io/v1beta1/OpenStackCluster']],
    ['CAPO v0.14 OpenStackCluster', OSC_CRD, ['infrastructure.cluster.x-k8s.io/v1beta1/OpenStackCluster']],
  ])('%s', (_n, crd, keys) => {
    expect(crdSchemas(upstream(crd)).map(([key]) => key)).toEqual(keys);
  });

  it('gives each served version its own openAPIV3Schema', () => {
    const [[, v1beta1], [, v1beta2]] = crdSchemas(upstream(MD_CRD));
    const versions = (upstream(MD_CRD).spec as { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] }).versions;
    expect(v1beta1).toBe(versions.find((v) => v.name === 'v1beta1')?.schema.openAPIV3Schema);
    expect(v1beta2).toBe(versions.find((v) => v.name === 'v1beta2')?.schema.openAPIV3Schema);
  });

  it('skips a served version without a schema (nothing to validate against)', () => {
    const crd: KubeObject = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.example.org' }, spec: { group: 'example.org', names: { kind: 'Thing' }, versions: [{ name: 'v1', served: true }, { name: 'v2', served: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    expect(crdSchemas(crd).map(([key]) => key)).toEqual(['example.org/v2/Thing']);
  });
});

describe('validating custom resources against upstream CRD schemas (CAPI v1.12.11)', () => {
  it('accepts what the API server accepts: ObjectMeta fields, int-or-string as number or percentage', () => {
    const ok = md({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } } }, { labels: { a: 'b' }, finalizers: ['x'], generateName: 'y' });
    expect(validateCustomResources([ok], validators(MD_CRD), 'rendered objects')).toEqual({ validated: ['MachineDeployment/demo/demo-md-0'], skipped: [] });
  });

  it.each<[string, KubeObject, string[]]>([
    ['a misspelt field, naming it', md({ replica: 2 }), ['MachineDeployment/demo/demo-md-0: /spec must NOT have additional properties (replica)']],
    ['an unknown field deep down', md({ strategy: { rollingUpdate: { maxSurge: 1, surge: 1 } } }),
      ['MachineDeployment/demo/demo-md-0: /spec/strategy/rollingUpdate must NOT have additional properties (surge)']],
    ['an unknown field in an object list (topology variables are open, their entries are not)', {
      apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name: 'demo', namespace: 'demo' },
      spec: { topology: { class: 'c', version: 'v1.33.4', variables: [{ name: 'a', value: { free: { form: true } }, valu: 1 }] } },
    }, ['Cluster/demo/demo: /spec/topology/variables/0 must NOT have additional properties (valu)']],
    ['an unknown field in a nested (template) metadata: only the object\'s own metadata is open', md({
      template: { metadata: { labels: { a: 'b' }, namespace: 'x' }, spec: (md().spec as { template: { spec: unknown } }).template.spec },
    }), ['MachineDeployment/demo/demo-md-0: /spec/template/metadata must NOT have additional properties (namespace)']],
    ['an unknown top-level field, at the root path', { ...md(), specs: {} },
      ['MachineDeployment/demo/demo-md-0: / must NOT have additional properties (specs)']],
    ['int-or-string given as a boolean', md({ strategy: { rollingUpdate: { maxSurge: true } } }), [
      'MachineDeployment/demo/demo-md-0: /spec/strategy/rollingUpdate/maxSurge must be integer',
      'MachineDeployment/demo/demo-md-0: /spec/strategy/rollingUpdate/maxSurge must be string',
      'MachineDeployment/demo/demo-md-0: /spec/strategy/rollingUpdate/maxSurge must match a schema in anyOf',
    ]],
    ['a missing required field', md({ clusterName: undefined }), ['MachineDeployment/demo/demo-md-0: /spec must have required property \'clusterName\'']],
  ])('rejects %s', (_n, object, problems) => {
    expect(problemsOf([JSON.parse(JSON.stringify(object)) as KubeObject], object.kind === 'Cluster' ? CLUSTER_CRD : MD_CRD)).toEqual(problems);
  });

  it('lists every problem of every object in one error, sorted, once each, saying what was checked and what to do', () => {
    const a = md({ replica: 2 }, { name: 'b' });
    const b = md({ paused: 'yes' }, { name: 'a' });
    let err: RenderError | undefined;
    try {
      validateCustomResources([a, b, a], validators(MD_CRD), 'rendered Cluster API objects');
    } catch (e) {
      err = e as RenderError;
    }
    expect(err?.message).toBe('rendered Cluster API objects do not match their CRD schemas');
    expect(err?.problems).toEqual([
      'MachineDeployment/demo/a: /spec/paused must be boolean',
      'MachineDeployment/demo/b: /spec must NOT have additional properties (replica)',
    ]);
    expect(err?.hint).toBe('this is a kaas bug or a bad template: please report it');
    expect(err?.exitCode).toBe(1);
  });

  it('skips objects without a validator, and validates the rest', () => {
    const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'demo' } };
    const v1beta2 = { ...md(), apiVersion: 'cluster.x-k8s.io/v1beta3' };
    expect(validateCustomResources([secret, md(), v1beta2], validators(MD_CRD), 'x')).toEqual({
      validated: ['MachineDeployment/demo/demo-md-0'], skipped: ['Secret/demo/s', 'MachineDeployment/demo/demo-md-0'],
    });
  });

  it('applies defaults as the API server does, to a copy: the rendered object is not changed', () => {
    const kcp: KubeObject = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1', kind: 'KubeadmControlPlane', metadata: { name: 'cp', namespace: 'demo' },
      spec: { version: 'v1.33.4', kubeadmConfigSpec: {}, machineTemplate: { infrastructureRef: { kind: 'OpenStackMachineTemplate', name: 'cp' } } },
    };
    const before = structuredClone(kcp);
    // rolloutStrategy defaults to {rollingUpdate: {maxSurge: 1}, type: RollingUpdate}: valid once defaulted
    expect(validateCustomResources([kcp], validators(KCP_CRD), 'x').validated).toEqual(['KubeadmControlPlane/demo/cp']);
    expect(kcp).toEqual(before);
  });
});

describe('closing structural schemas (unknown fields are errors, as with strict field validation)', () => {
  const obj = (properties: Record<string, Schema>, more: Schema = {}): Schema => ({ type: 'object', properties, ...more });
  it.each<[string, Schema, Schema]>([
    ['an object with properties is closed, at every depth',
      obj({ spec: obj({ a: { type: 'string' } }) }),
      obj({ spec: obj({ a: { type: 'string' } }, { additionalProperties: false }) }, { additionalProperties: false })],
    ['the object\'s own metadata stays open (ObjectMeta is not in CRD schemas), a nested one is closed',
      obj({ metadata: obj({ name: { type: 'string' } }), spec: obj({ metadata: obj({ labels: { type: 'object' } }) }) }),
      obj({ metadata: obj({ name: { type: 'string' } }), spec: obj({ metadata: obj({ labels: { type: 'object' } }, { additionalProperties: false }) }, { additionalProperties: false }) },
        { additionalProperties: false })],
    ['x-kubernetes-preserve-unknown-fields keeps an object open',
      obj({ a: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }),
      obj({ a: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true })],
    ['an explicit additionalProperties is kept',
      obj({ a: { type: 'string' } }, { additionalProperties: true }),
      obj({ a: { type: 'string' } }, { additionalProperties: true })],
    ['list items are closed, a metadata in them too',
      { type: 'array', items: obj({ metadata: obj({ a: { type: 'string' } }) }) },
      { type: 'array', items: obj({ metadata: obj({ a: { type: 'string' } }, { additionalProperties: false }) }, { additionalProperties: false }) }],
    ['map values are closed, a metadata in them too',
      { type: 'object', additionalProperties: obj({ metadata: obj({ a: { type: 'string' } }) }) },
      { type: 'object', additionalProperties: obj({ metadata: obj({ a: { type: 'string' } }, { additionalProperties: false }) }, { additionalProperties: false }) }],
    ['x-kubernetes-int-or-string without anyOf gets it spelled out',
      { 'x-kubernetes-int-or-string': true },
      { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    ['x-kubernetes-int-or-string with anyOf (as controller-gen writes it) is kept',
      { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^[0-9]+%$' }] },
      { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^[0-9]+%$' }] }],
    ['a scalar is left as it is', { type: 'string', format: 'uuid' }, { type: 'string', format: 'uuid' }],
  ])('%s', (_n, schema, closed) => {
    const copy = structuredClone(schema);
    expect(closeObjects(schema)).toEqual(closed);
    expect(schema).toEqual(copy);
  });

  it.each<[unknown, boolean]>([[12, true], ['12', true], [12.5, false], [true, false]])('int-or-string without anyOf: %j valid → %s', (value, ok) => {
    const validate = compileCrdSchema(obj({ port: { 'x-kubernetes-int-or-string': true } }));
    expect(validate({ port: value })).toBe(ok);
  });
});

describe('the ajv set-up of CRD validators', () => {
  it.each<[string, string, boolean]>([
    ['uuid', '0b9a7f7c-1f57-4d8e-9a0a-4a2f0c3c9d11', true],
    ['uuid', 'net-1', false],
    ['ipv4', '203.0.113.7', true],
    ['ipv4', '203.0.113.300', false],
    ['date-time', '2026-11-23T16:55:00Z', true],
    ['date-time', 'yesterday', false],
  ])('checks format %s: %s → %s', (format, value, ok) => {
    expect(compileCrdSchema({ type: 'string', format })(value)).toBe(ok);
  });

  it('names the format a value misses, for a field upstream declares as uuid (CAPO OpenStackCluster spec.network.id)', () => {
    const object: KubeObject = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackCluster', metadata: { name: 'demo', namespace: 'demo' },
      spec: { identityRef: { name: 's', cloudName: 'openstack' }, network: { id: 'my-network' } },
    };
    expect(problemsOf([object], OSC_CRD)).toEqual(['OpenStackCluster/demo/demo: /spec/network/id must match format "uuid"']);
  });
});
