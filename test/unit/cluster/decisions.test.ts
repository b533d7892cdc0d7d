import { defaultAddonVersion } from '../../../lib/plan/addon-table.js';
import { cloudProviderVersion, planAddons } from '../../../lib/plan/addons.js';
import { chooseFlavor, chooseImage } from '../../../lib/plan/machines.js';
import { planServerGroups, sharedServerGroups, type ServerGroupAction, type ServerGroupInput } from '../../../lib/plan/server-groups.js';
import { SETTINGS } from '../../../lib/settings/table.js';
import type { Settings } from '../../../lib/settings/types.js';

const defaults = Object.fromEntries(SETTINGS.map((d) => [d.key, d.default])) as unknown as Settings;

describe('chooseImage', () => {
  const images = ['ubuntu-capi-image-v1.33.1', 'ubuntu-capi-image-v1.33.10', 'ubuntu-capi-image-v1.33.4', 'ubuntu-capi-image-v1.32.9', 'debian-12'];
  it.each<[string, string, string, string[] | undefined, string, string]>([
    ['vX.Y.x picks the newest patch numerically (10 > 4)', 'v1.33.x', '', images, 'v1.33.10', 'ubuntu-capi-image-v1.33.10'],
    ['a full version uses the SCS image name', 'v1.33.4', '', images, 'v1.33.4', 'ubuntu-capi-image-v1.33.4'],
    ['an explicit image is used as is', 'v1.33.4', 'my-image', ['my-image'], 'v1.33.4', 'my-image'],
    ['without the cloud a full version is trusted', 'v1.33.4', '', undefined, 'v1.33.4', 'ubuntu-capi-image-v1.33.4'],
  ])('%s', (_n, version, image, list, wantVersion, wantImage) => {
    const d = chooseImage(version, image, list);
    expect(d).toMatchObject({ ok: true, value: { kubernetesVersion: wantVersion, image: wantImage } });
  });
  it.each<[string, string, string, string[] | undefined, RegExp]>([
    ['vX.Y.x without the cloud', 'v1.33.x', '', undefined, /needs the cloud's image list/],
    ['vX.Y.x with no matching image', 'v1.34.x', '', images, /no image ubuntu-capi-image-v1\.34\.<patch>/],
    ['a missing image', 'v1.33.5', '', images, /ubuntu-capi-image-v1\.33\.5 does not exist/],
    ['vX.Y.x with an explicit image', 'v1.33.x', 'my-image', images, /cannot be resolved when image is set/],
  ])('error: %s', (_n, version, image, list, error) => {
    const d = chooseImage(version, image, list);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.refusals[0].message).toMatch(error);
  });
});

describe('chooseFlavor (diskless flavors boot from a root volume)', () => {
  const flavors = [{ name: 'SCS-2V-4', disk: 0 }, { name: 'SCS-2V-4-20s', disk: 20 }];
  it.each<[string, string, number, typeof flavors | undefined, number]>([
    ['a flavor with a disk needs no volume', 'SCS-2V-4-20s', 25, flavors, 0],
    ['a diskless flavor gets the configured root volume', 'SCS-2V-4', 25, flavors, 25],
    ['offline: the SCS name tells diskless', 'SCS-4V-8', 30, undefined, 30],
    ['offline: the SCS name tells a disk', 'SCS-4V-8-50', 30, undefined, 0],
    ['offline: other names are assumed to have a disk', 'm1.large', 30, undefined, 0],
  ])('%s', (_n, flavor, root, list, want) => {
    expect(chooseFlavor('worker', flavor, root, list)).toMatchObject({ ok: true, value: { flavor, rootVolumeGiB: want } });
  });
  it('a missing flavor lists the SCS flavors found', () => {
    const d = chooseFlavor('controller', 'SCS-8V-16', 25, flavors);
    expect(d).toMatchObject({ ok: false, refusals: [{ message: 'controller flavor SCS-8V-16 does not exist in the cloud', hint: 'flavors found include: SCS-2V-4, SCS-2V-4-20s' }] });
  });
  it('a diskless flavor with root disk 0 is refused', () => {
    expect(chooseFlavor('worker', 'SCS-2V-4', 0, flavors)).toMatchObject({ ok: false, refusals: [{ message: expect.stringMatching(/no disk and worker_root_disk is 0/) }] });
  });
});

describe('planServerGroups', () => {
  const base: ServerGroupInput = { cluster: 'demo', prefix: 'capi', antiAffinity: true, softController: false, existing: [] };
  it.each<[string, Partial<ServerGroupInput>, unknown]>([
    ['none without anti_affinity', { antiAffinity: false }, []],
    ['hard for the control plane, soft for workers', {}, [
      { role: 'controller', name: 'capi-demo-controller', policy: 'anti-affinity', action: 'create' },
      { role: 'worker', name: 'capi-demo-worker', policy: 'soft-anti-affinity', action: 'create' }]],
    ['soft for the control plane when asked', { softController: true }, [
      { role: 'controller', name: 'capi-demo-controller', policy: 'soft-anti-affinity', action: 'create' },
      { role: 'worker', name: 'capi-demo-worker', policy: 'soft-anti-affinity', action: 'create' }]],
    ['existing groups are reused (a re-run)', { existing: [{ id: 'g1', name: 'capi-demo-controller', policy: 'anti-affinity' }, { id: 'g2', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }] }, [
      { role: 'controller', name: 'capi-demo-controller', policy: 'anti-affinity', action: 'reuse', id: 'g1', members: [] },
      { role: 'worker', name: 'capi-demo-worker', policy: 'soft-anti-affinity', action: 'reuse', id: 'g2' }]],
  ])('%s', (_n, over, groups) => {
    expect(planServerGroups({ ...base, ...over })).toMatchObject({ ok: true, value: groups });
  });
  it.each<[string, Partial<ServerGroupInput>, RegExp]>([
    ['a group with another policy', { existing: [{ id: 'g1', name: 'capi-demo-controller', policy: 'soft-anti-affinity' }] }, /exists with policy soft-anti-affinity, but anti-affinity is wanted/],
    ['two groups with the same name', { existing: [{ id: 'a', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }, { id: 'b', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }] }, /2 server groups are named capi-demo-worker \(ids a, b\)/],
  ])('error: %s', (_n, over, error) => {
    const p = planServerGroups({ ...base, ...over });
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.refusals[0].message).toMatch(error);
  });
});

describe('sharedServerGroups', () => {
  const group = (role: 'controller' | 'worker', action: 'create' | 'reuse', members?: string[]): ServerGroupAction =>
    ({ role, name: `capi-demo-${role}`, policy: role === 'controller' ? 'anti-affinity' : 'soft-anti-affinity', action, id: action === 'reuse' ? `g-${role}` : undefined, members });
  it.each<[string, ServerGroupAction[], boolean]>([
    ['a new cluster creates its groups', [group('controller', 'create'), group('worker', 'create')], true],
    ['a new cluster reuses empty groups (left by a deleted cluster)', [group('controller', 'reuse', []), group('worker', 'reuse', [])], true],
    ['a running cluster keeps groups with its servers', [group('controller', 'reuse', ['s1', 's2']), group('worker', 'reuse', ['s3'])], false],
    ['no groups (anti_affinity false)', [], true],
  ])('allowed: %s', (_n, groups, isNew) => {
    expect(sharedServerGroups(groups, isNew, 'staging/demo', 'capi')).toMatchObject({ ok: true, value: undefined });
  });
  it.each<[string, ServerGroupAction[], RegExp]>([
    ['the control-plane group holds another cluster\'s servers', [group('controller', 'reuse', ['s2', 's1']), group('worker', 'reuse', [])],
      /^Cluster staging\/demo does not exist yet, but server group capi-demo-controller \(g-controller\) already holds 2 servers \(s1, s2\): another cluster of the same name .* uses it$/],
    ['both groups are taken', [group('controller', 'reuse', ['s1']), group('worker', 'reuse', ['s3'])],
      /capi-demo-controller \(g-controller\) already holds 1 server \(s1\); server group capi-demo-worker \(g-worker\) already holds 1 server \(s3\).* uses them$/],
  ])('refused: %s', (_n, groups, message) => {
    const d = sharedServerGroups(groups, true, 'staging/demo', 'capi');
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.refusals[0].message).toMatch(message);
      expect(d.refusals[0].hint).toMatch(/another name, or this environment another prefix \(setting prefix, now capi/);
    }
  });
});

describe('planAddons', () => {
  it.each<[string, Partial<Settings>, { cilium: boolean; helm: boolean }, string[]]>([
    ['defaults: OCCM, cilium by its CLI, Cinder CSI, metrics-server', {}, { cilium: true, helm: false }, ['occm v1.33.0 bundled', `cilium ${defaultAddonVersion('cilium', 'v1.33.4')} cilium-cli`, 'cinder-csi v1.33.0 bundled', 'metrics-server v0.7.2 bundled']],
    ['cilium through helm when its CLI is missing', { deploy_metrics: false, deploy_cindercsi: false, deploy_occm: false }, { cilium: false, helm: true }, [`cilium ${defaultAddonVersion('cilium', 'v1.33.4')} helm`]],
    ['pinned versions win', { use_cilium: 'v1.16.0', deploy_occm: 'v1.32.1', deploy_cindercsi: false, deploy_metrics: false }, { cilium: true, helm: true }, ['occm v1.32.1 bundled', 'cilium v1.16.0 cilium-cli']],
    ['calico from the bundled manifest when use_cilium is false', { use_cilium: false, deploy_occm: false, deploy_cindercsi: false, deploy_metrics: false }, { cilium: false, helm: false }, ['calico v3.27.3 bundled']],
    ['cert-manager through helm', { deploy_cert_manager: true, deploy_occm: false, deploy_cindercsi: false, deploy_metrics: false }, { cilium: true, helm: true }, [`cilium ${defaultAddonVersion('cilium', 'v1.33.4')} cilium-cli`, `cert-manager ${defaultAddonVersion('cert-manager', 'v1.33.4')} helm`]],
  ])('%s', (_n, over, tools, want) => {
    const p = planAddons({ ...defaults, ...over }, 'v1.33.4', tools);
    if (!p.ok) throw new Error(p.refusals[0].message);
    expect(p.value.map((s) => `${s.name} ${s.version} ${s.method}`)).toEqual(want);
  });
  it.each<[string, Partial<Settings>, { cilium: boolean; helm: boolean }, RegExp]>([
    ['cilium without its CLI or helm', {}, { cilium: false, helm: false }, /cilium CLI or helm/],
    ['calico version not bundled', { use_cilium: false, calico_version: 'v3.26.0' }, { cilium: true, helm: true }, /calico v3\.26\.0 is not bundled/],
    ['cert-manager without helm', { deploy_cert_manager: true }, { cilium: true, helm: false }, /needs helm/],
  ])('error: %s', (_n, over, tools, error) => {
    const p = planAddons({ ...defaults, ...over }, 'v1.33.4', tools);
    expect(!p.ok && p.refusals[0].message).toMatch(error);
  });
  it.each([['v1.33.4', 'v1.33.0'], ['v1.40.1', 'v1.36.0']])('cloud-provider-openstack for %s is %s', (k, want) => {
    expect(cloudProviderVersion(k)).toBe(want);
  });
});
