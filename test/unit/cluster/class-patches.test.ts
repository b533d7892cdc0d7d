import { routeFields, type WantedField } from '../../../lib/cluster/topology/class-patches.js';
import { patchEnabled, renderTemplate, templateVariables } from '../../../lib/cluster/topology/go-template.js';

// A class shaped like the Cluster Stacks class (reference/cluster-stacks/openstack-scs2-1-34-v2), cut to
// the patches that touch what kaas converges; class-patches-helm.test.ts runs the real rendered class.
const OSMT = 'OpenStackMachineTemplate';
const sel = (kind: string, matchResources: Record<string, unknown>) => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind, matchResources });
const cp = sel(OSMT, { controlPlane: true });
const md = sel(OSMT, { controlPlane: false, machineDeploymentClass: { names: ['default-worker'] } });
const image = "{{ if .imageIsOrc }}imageRef{{ else }}filter{{ end }}:\n  name: {{ .imageName }}{{ if .imageAddVersion }}-{{ .builtin.controlPlane.version }}{{ end }}\n";
const klass = (extraPatches: unknown[] = []) => ({
  metadata: { name: 'scs2' },
  spec: {
    variables: [
      { name: 'imageName', schema: { openAPIV3Schema: { type: 'string', default: 'ubuntu-capi-image' } } },
      { name: 'imageIsOrc', schema: { openAPIV3Schema: { type: 'boolean', default: false } } },
      { name: 'imageAddVersion', schema: { openAPIV3Schema: { type: 'boolean', default: true } } },
      { name: 'controlPlaneFlavor', schema: { openAPIV3Schema: { type: 'string', default: 'SCS-2V-4' } } },
      { name: 'controlPlaneRootDisk', schema: { openAPIV3Schema: { type: 'integer', minimum: 0, default: 50 } } },
      { name: 'workerFlavor', schema: { openAPIV3Schema: { type: 'string', default: 'SCS-4V-8' } } },
      { name: 'cidrs', schema: { openAPIV3Schema: { type: 'array', items: { type: 'string' } } } },
    ],
    patches: [
      { name: 'controlPlaneImage', definitions: [{ selector: cp, jsonPatches: [{ op: 'add', path: '/spec/template/spec/image', valueFrom: { template: image } }] }] },
      { name: 'controlPlaneFlavor', enabledIf: '{{ ne .controlPlaneFlavor "" }}', definitions: [{ selector: cp, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/flavor', valueFrom: { variable: 'controlPlaneFlavor' } }] }] },
      { name: 'controlPlaneRootDisk', definitions: [{ selector: cp, jsonPatches: [{ op: 'add', path: '/spec/template/spec/rootVolume', valueFrom: { template: 'sizeGiB: {{ .controlPlaneRootDisk }}\n' } }] }] },
      { name: 'workerFlavor', definitions: [{ selector: md, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/flavor', valueFrom: { variable: 'workerFlavor' } }] }] },
      { name: 'allowed', definitions: [{ selector: sel('OpenStackClusterTemplate', { infrastructureCluster: true }), jsonPatches: [{ op: 'add', path: '/spec/template/spec/apiServerLoadBalancer/allowedCIDRs', valueFrom: { variable: 'cidrs' } }] }] },
      ...extraPatches,
    ],
  },
});
const f = (setting: string, target: WantedField['target'], field: string, wanted: unknown, kind: WantedField['kind'] = OSMT): WantedField => ({ setting, target, kind, path: `/spec/template/spec/${field}`, wanted });
const CP = { role: 'controlPlane' } as const;
const W = { role: 'worker', class: 'default-worker' } as const;
const show = (r: ReturnType<typeof routeFields>[number]) =>
  r.way === 'variable' ? `variable ${r.variable.name}=${JSON.stringify(r.variable.value)}` : r.way === 'template' ? 'template' : `refused: ${r.refusal.message}`;

describe('routeFields: which way each setting reaches a class that patches it (review N2)', () => {
  it.each([
    ['control-plane flavor through its variable', f('controller_flavor', CP, 'flavor', 'SCS-4V-8'), [], 'variable controlPlaneFlavor="SCS-4V-8"'],
    ['worker flavor through its variable (the pool class the selector names)', f('worker_flavor', W, 'flavor', 'SCS-8V-16'), [], 'variable workerFlavor="SCS-8V-16"'],
    ['a worker class no selector names: a template generation', f('worker_flavor', { role: 'worker', class: 'other' }, 'flavor', 'x'), [], 'template'],
    ['root disk: the template patch inverted to the integer variable', f('controller_root_disk', CP, 'rootVolume', { sizeGiB: 80 }), [], 'variable controlPlaneRootDisk=80'],
    ['root disk below the schema minimum: refused, naming the variable', f('controller_root_disk', CP, 'rootVolume', { sizeGiB: -1 }), [], 'refused: ClusterClass scs2\'s patch controlPlaneRootDisk sets /spec/template/spec/rootVolume of the OpenStackMachineTemplate, so controller_root_disk cannot reach it: variable controlPlaneRootDisk cannot hold it: -1 is below the variable\'s minimum 0'],
    ['root disk with a volume type the patch cannot carry: refused', f('controller_root_disk', CP, 'rootVolume', { sizeGiB: 80, type: 'ssd' }), [], 'refused: ClusterClass scs2\'s patch controlPlaneRootDisk sets /spec/template/spec/rootVolume of the OpenStackMachineTemplate, so controller_root_disk cannot reach it: the class\'s patch sets sizeGiB of it, kaas wants type too (with no other variable)'],
    ['image: the version suffix the class appends is taken off', f('image', CP, 'image', { filter: { name: 'ubuntu-capi-image-v1.34.10' } }), [], 'variable imageName="ubuntu-capi-image"'],
    ['image without the version the class appends: refused (imageAddVersion is the user\'s)', f('image', CP, 'image', { filter: { name: 'my-image' } }), [], 'refused: ClusterClass scs2\'s patch controlPlaneImage sets /spec/template/spec/image of the OpenStackMachineTemplate, so image cannot reach it: the class makes filter.name "<variable>-v1.34.10", which cannot be "my-image" (with imageIsOrc=false, imageAddVersion=true)'],
    ['allowed CIDRs on the cluster template', f('restrict_kubeapi', { role: 'infrastructureCluster' }, 'apiServerLoadBalancer/allowedCIDRs', ['10.0.0.0/8'], 'OpenStackClusterTemplate'), [], 'variable cidrs=["10.0.0.0/8"]'],
    ['a field no patch sets: a template generation', f('worker_root_disk', W, 'rootVolume', { sizeGiB: 30 }), [], 'template'],
    ['a later patch setting a constant wins: refused', f('controller_flavor', CP, 'flavor', 'big'), [{ name: 'pin', definitions: [{ selector: cp, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/flavor', value: 'tiny' }] }] }], 'refused: ClusterClass scs2\'s patch pin sets /spec/template/spec/flavor of the OpenStackMachineTemplate, so controller_flavor cannot reach it: it sets the constant "tiny"'],
    ['a patch onto a part of the field: the part is the value', f('worker_root_disk', W, 'rootVolume', { sizeGiB: 30 }), [{ name: 'wd', definitions: [{ selector: md, jsonPatches: [{ op: 'add', path: '/spec/template/spec/rootVolume/sizeGiB', valueFrom: { variable: 'controlPlaneRootDisk' } }] }] }], 'variable controlPlaneRootDisk=30'],
    ['a variable the class does not declare: refused', f('worker_flavor', W, 'flavor', 'x'), [{ name: 'bad', definitions: [{ selector: md, jsonPatches: [{ op: 'add', path: '/spec/template/spec/flavor', valueFrom: { variable: 'nope' } }] }] }], 'refused: ClusterClass scs2\'s patch bad sets /spec/template/spec/flavor of the OpenStackMachineTemplate, so worker_flavor cannot reach it: it reads variable nope, which the class does not declare'],
  ])('%s', (_name, field, extra, want) => {
    expect(routeFields({ clusterClass: klass(extra), version: 'v1.34.10', fields: [field] }).map(show)).toEqual([want]);
  });

  it('the Cluster\'s own variable values hold the template\'s other variables: imageAddVersion=false takes the name whole', () => {
    const r = routeFields({ clusterClass: klass(), clusterVariables: [{ name: 'imageAddVersion', value: false }], version: 'v1.34.10', fields: [f('image', CP, 'image', { filter: { name: 'my-image' } })] });
    expect(r.map(show)).toEqual(['variable imageName="my-image"']);
  });

  it('the live value is the Cluster\'s, else the schema default; the note names the way and the enabledIf', () => {
    const [a] = routeFields({ clusterClass: klass(), version: 'v1.34.10', fields: [f('controller_flavor', CP, 'flavor', 'SCS-4V-8')] });
    expect(a).toMatchObject({ way: 'variable', variable: { name: 'controlPlaneFlavor', live: 'SCS-2V-4' }, note: 'controller_flavor: through variable controlPlaneFlavor (patch controlPlaneFlavor of ClusterClass scs2; the class applies it when {{ ne .controlPlaneFlavor "" }}); its templates stay' });
    const [b] = routeFields({ clusterClass: klass(), clusterVariables: [{ name: 'controlPlaneFlavor', value: 'mine' }], version: 'v1.34.10', fields: [f('controller_flavor', CP, 'flavor', 'x')] });
    expect(b).toMatchObject({ variable: { live: 'mine' } });
  });
});

// The Cluster Stacks class (openstack-scs2-1-34-v2) gates its allowed-CIDRs patch on the API LB variable:
// enabledIf '{{ and .apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs (eq .apiServerLoadBalancer "octavia-amphora") }}'.
describe('routeFields honours enabledIf: a patch Cluster API would not apply does not carry the field', () => {
  const CIDR_IF = '{{ and .cidrs (eq .apiServerLoadBalancer "octavia-amphora") }}';
  const osctSel = sel('OpenStackClusterTemplate', { infrastructureCluster: true });
  const gated = (enabledIf = CIDR_IF, more: unknown[] = []) => ({
    metadata: { name: 'scs2' },
    spec: {
      variables: [
        { name: 'apiServerLoadBalancer', schema: { openAPIV3Schema: { type: 'string', default: 'octavia-ovn' } } },
        { name: 'cidrs', schema: { openAPIV3Schema: { type: 'array', items: { type: 'string' } } } },
        { name: 'mode', schema: { openAPIV3Schema: { type: 'string', default: 'free' } } },
      ],
      patches: [
        ...more,
        { name: 'allowedCIDRs', enabledIf, definitions: [{ selector: osctSel, jsonPatches: [{ op: 'add', path: '/spec/template/spec/apiServerLoadBalancer/allowedCIDRs', valueFrom: { variable: 'cidrs' } }] }] },
      ],
    },
  });
  const cidrs = (wanted: string[]) => f('restrict_kubeapi', { role: 'infrastructureCluster' }, 'apiServerLoadBalancer/allowedCIDRs', wanted, 'OpenStackClusterTemplate');
  const amphora = { name: 'apiServerLoadBalancer', value: 'octavia-amphora' };

  it('the class default octavia-ovn switches the patch off: not through the variable (kaas used to set it, and the kube-API stayed open)', () => {
    const [r] = routeFields({ clusterClass: gated(), version: 'v1.34.10', fields: [cidrs(['10.0.0.0/8'])] });
    expect(r.way).toBe('template');
    expect(r.way === 'template' && r.note).toBe(`restrict_kubeapi: through a new template generation (no patch of ClusterClass scs2 that applies sets /spec/template/spec/apiServerLoadBalancer/allowedCIDRs: patch allowedCIDRs would set it only when ${CIDR_IF}, which is false with the Cluster's variables and cidrs=["10.0.0.0/8"])`);
  });
  it('with apiServerLoadBalancer octavia-amphora on the Cluster the patch applies: through the variable', () => {
    expect(routeFields({ clusterClass: gated(), clusterVariables: [amphora], version: 'v1.34.10', fields: [cidrs(['10.0.0.0/8'])] }).map(show)).toEqual(['variable cidrs=["10.0.0.0/8"]']);
  });
  it('opening a restriction the variable holds: the variable set to [] switches the patch off', () => {
    const [r] = routeFields({ clusterClass: gated(), clusterVariables: [amphora, { name: 'cidrs', value: ['10.0.0.0/8'] }], version: 'v1.34.10', fields: [cidrs([])] });
    expect(show(r)).toBe('variable cidrs=[]');
    expect(r.way === 'variable' && r.note).toMatch(/set to \[\], it switches patch allowedCIDRs of ClusterClass scs2 off/);
  });
  it('nothing restricted and nothing wanted: no variable (the template way, which changes nothing)', () => {
    expect(routeFields({ clusterClass: gated(), clusterVariables: [amphora], version: 'v1.34.10', fields: [cidrs([])] }).map((r) => r.way)).toEqual(['template']);
  });
  it('a later patch that is off leaves the field to the earlier one that applies', () => {
    const pin = { name: 'pin', enabledIf: '{{ eq .mode "fixed" }}', definitions: [{ selector: osctSel, jsonPatches: [{ op: 'add', path: '/spec/template/spec/apiServerLoadBalancer/allowedCIDRs', value: ['0.0.0.0/0'] }] }] };
    const klass2 = gated(CIDR_IF);
    klass2.spec.patches.push(pin as never);
    expect(routeFields({ clusterClass: klass2, clusterVariables: [amphora], version: 'v1.34.10', fields: [cidrs(['10.0.0.0/8'])] }).map(show)).toEqual(['variable cidrs=["10.0.0.0/8"]']);
    expect(routeFields({ clusterClass: klass2, clusterVariables: [amphora, { name: 'mode', value: 'fixed' }], version: 'v1.34.10', fields: [cidrs(['10.0.0.0/8'])] }).map(show))
      .toEqual(['refused: ClusterClass scs2\'s patch pin sets /spec/template/spec/apiServerLoadBalancer/allowedCIDRs of the OpenStackClusterTemplate, so restrict_kubeapi cannot reach it: it sets the constant ["0.0.0.0/0"]']);
  });
  it('an enabledIf kaas cannot evaluate: refused, naming it', () => {
    expect(routeFields({ clusterClass: gated('{{ len .cidrs }}'), clusterVariables: [amphora], version: 'v1.34.10', fields: [cidrs(['10.0.0.0/8'])] }).map(show))
      .toEqual(['refused: ClusterClass scs2\'s patch allowedCIDRs sets /spec/template/spec/apiServerLoadBalancer/allowedCIDRs of the OpenStackClusterTemplate, so restrict_kubeapi cannot reach it: its enabledIf uses {{ len .cidrs }} (the function len), which kaas does not evaluate']);
  });
  it('the flavor patch of the class (enabledIf ne .controlPlaneFlavor ""): kaas\'s non-empty flavor keeps it on', () => {
    expect(routeFields({ clusterClass: klass(), clusterVariables: [{ name: 'controlPlaneFlavor', value: '' }], version: 'v1.34.10', fields: [f('controller_flavor', CP, 'flavor', 'SCS-4V-8')] }).map(show)).toEqual(['variable controlPlaneFlavor="SCS-4V-8"']);
  });
});

describe('renderTemplate / templateVariables (the text/template subset of patch templates)', () => {
  it.each([
    ['{{ if .a }}x{{ else }}y{{ end }}', { a: true }, 'x'],
    ['{{ if .a }}x{{ else }}y{{ end }}', { a: false }, 'y'],
    ['n: {{ .b.c }}', { b: { c: 3 } }, 'n: 3'],
    ['a\n  {{- .x }}', { x: 1 }, 'a1'],
    ['{{ .missing }}', {}, '<no value>'],
    ['{{ eq .a "x" }}', { a: 'x' }, 'true'],
    ['{{ eq .a `x` "y" }}', { a: 'y' }, 'true'],
    ['{{ ne .a "" }}', { a: '' }, 'false'],
    ['{{ and .c (eq .a "octavia-amphora") }}', { c: ['10.0.0.0/8'], a: 'octavia-amphora' }, 'true'],
    ['{{ and .c (eq .a "octavia-amphora") }}', { c: ['10.0.0.0/8'], a: 'octavia-ovn' }, 'false'],
    ['{{ and .c (eq .a "octavia-amphora") }}', { a: 'octavia-amphora' }, '<no value>'],
    ['{{ or .a .b }}', { a: '', b: 'y' }, 'y'],
    ['{{ not .a }}', { a: false }, 'true'],
    ['{{ if .x }}true{{end}}', { x: 0 }, ''],
    ['{{ if eq .n 3 }}three{{ else }}other{{ end }}', { n: 3 }, 'three'],
    ['{{ eq .missing "x" }}', {}, 'false'],
  ])('%s with %j → %j', (src, vars, out) => {
    expect(renderTemplate(src, vars)).toBe(out);
  });
  it.each([
    ['{{ .a | quote }}', 'quote'],
    ['{{ len .a }}', 'len'],
    ['{{ eq .a 1 }}', 'eq of string and number'],
    ['{{ eq .a }}', 'eq with 1 arguments'],
    ['{{ $x := .a }}', '$x'],
  ])('%s is not evaluated (throws naming %s)', (src, what) => {
    expect(() => renderTemplate(src, { a: '1' })).toThrow(what);
  });
  it('patchEnabled: no enabledIf applies; otherwise only a rendered true does', () => {
    expect(patchEnabled(undefined, {})).toBe(true);
    expect(patchEnabled('{{ if .networkMTU }}true{{end}}', { networkMTU: 1400 })).toBe(true);
    expect(patchEnabled('{{ if .networkMTU }}true{{end}}', {})).toBe(false);
    expect(patchEnabled('{{ ne .controlPlaneServerGroupID "" }}', { controlPlaneServerGroupID: '' })).toBe(false);
  });
  it('reads the variables, builtin left out; unsupported actions throw', () => {
    expect(templateVariables(image).sort()).toEqual(['imageAddVersion', 'imageIsOrc', 'imageName']);
    expect(() => templateVariables('{{ range .x }}{{ . }}{{ end }}')).toThrow('range');
  });
});
