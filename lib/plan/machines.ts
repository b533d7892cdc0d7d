import { decided, refused, type Decision } from './decision.js';

/**
 * The shape of the nodes: which Kubernetes version and Glance image, and whether a flavor needs a
 * root volume. Pure: the cloud's image names and flavors are passed in (undefined = not known,
 * e.g. a dry-run without cloud access; then the decision says what it assumed).
 */


/** The Kubernetes version and image the nodes run. */
export interface ImageChoice {
  /** A full version "vX.Y.Z" (what KubeadmControlPlane and MachineDeployment need). */
  kubernetesVersion: string;
  image: string;
}

const FULL = /^v(\d+)\.(\d+)\.(\d+)$/;
const PATCH_X = /^v(\d+)\.(\d+)\.x$/;

/** The SCS image naming convention (k8s-cluster-api-provider `OPENSTACK_IMAGE_NAME`). */
export function defaultImageName(version: string): string {
  return `ubuntu-capi-image-${version}`;
}

/**
 * Resolves `kubernetes_version` ("vX.Y.Z", or "vX.Y.x" = the newest patch release an image exists
 * for) and `image` ("" = ubuntu-capi-image-<version>) against the cloud's image names.
 */
export function chooseImage(version: string, image: string, images: string[] | undefined, unknownWhy?: string): Decision<ImageChoice> {
  const reasons: string[] = [];
  const px = PATCH_X.exec(version);
  if (px) {
    if (image) {
      return refused({ message: `kubernetes_version ${version} cannot be resolved when image is set explicitly (${image})`, hint: 'set a full kubernetes_version, e.g. v1.33.4' }, reasons);
    }
    if (!images) {
      const why = unknownWhy ? `; the image list could not be read: ${unknownWhy}` : '';
      return refused({ message: `kubernetes_version ${version} needs the cloud's image list to find the newest patch release${why}`, hint: `set a full version (--set kubernetes_version=v${px[1]}.${px[2]}.<patch>) or give kaas access to the cloud` }, reasons);
    }
    const re = new RegExp(`^${defaultImageName(`v${px[1]}\\.${px[2]}\\.`).replace(/-/g, '\\-')}(\\d+)$`);
    const patches = images.map((n) => re.exec(n)).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]));
    if (patches.length === 0) {
      return refused({ message: `no image ${defaultImageName(`v${px[1]}.${px[2]}.<patch>`)} in the cloud`, hint: 'upload a Cluster API node image (image-builder) or set image and a full kubernetes_version' }, reasons);
    }
    const best = `v${px[1]}.${px[2]}.${Math.max(...patches)}`;
    reasons.push(`kubernetes_version ${version} resolved to ${best} (newest image ${defaultImageName(best)})`);
    return decided({ kubernetesVersion: best, image: defaultImageName(best) }, reasons);
  }
  if (!FULL.test(version)) {
    return refused({ message: `kubernetes_version "${version}" is not vX.Y.Z or vX.Y.x`, hint: 'e.g. kubernetes_version: v1.33.4' }, reasons);
  }
  const name = image || defaultImageName(version);
  if (images === undefined) reasons.push(`image ${name} not checked (cloud not asked)`);
  else if (!images.includes(name)) {
    const similar = images.filter((n) => n.startsWith('ubuntu-capi-image-')).sort();
    return refused({ message: `image ${name} does not exist in the cloud`, hint: similar.length ? `images found: ${similar.join(', ')}` : 'upload a Cluster API node image (image-builder)' }, reasons);
  }
  return decided({ kubernetesVersion: version, image: name }, reasons);
}

/** A flavor as Nova lists it (only what the decision needs). */
export interface FlavorFact {
  name: string;
  disk?: number;
}

/** The flavor of one node role and its root volume (0 = the flavor's own disk). */
export interface FlavorChoice {
  flavor: string;
  rootVolumeGiB: number;
}

// SCS flavor names: SCS-<cpu>V-<ram>[-<disk>[s]] (SCS standard scs-0100); no disk part = diskless.
const SCS_FLAVOR = /^SCS-\d+[VLTC]?-\d+(?:\.\d+)?(?:-(\d+)s?)?$/i;

/**
 * Checks a flavor and decides whether it needs a root volume: diskless flavors (disk 0) boot
 * from a Cinder volume of `rootDiskGiB`. Without the cloud's flavor list, an SCS flavor name tells
 * whether it has a disk; any other name is assumed to have one.
 */
export function chooseFlavor(role: string, flavor: string, rootDiskGiB: number, flavors: FlavorFact[] | undefined): Decision<FlavorChoice> {
  const reasons: string[] = [];
  let disk: number | undefined;
  if (flavors) {
    const f = flavors.find((x) => x.name === flavor);
    if (!f) {
      const scs = flavors.map((x) => x.name).filter((n) => n.startsWith('SCS-')).sort().slice(0, 12);
      return refused({ message: `${role} flavor ${flavor} does not exist in the cloud`, hint: scs.length ? `flavors found include: ${scs.join(', ')}` : 'openstack flavor list' }, reasons);
    }
    disk = f.disk ?? 0;
  } else {
    const m = SCS_FLAVOR.exec(flavor);
    if (m) {
      disk = m[1] ? Number(m[1]) : 0;
      reasons.push(`${role} flavor ${flavor} not checked (cloud not asked); its SCS name says ${disk ? `${disk} GB disk` : 'diskless'}`);
    } else {
      reasons.push(`${role} flavor ${flavor} not checked (cloud not asked); assumed to have a disk`);
      return decided({ flavor, rootVolumeGiB: 0 }, reasons);
    }
  }
  if (disk > 0) return decided({ flavor, rootVolumeGiB: 0 }, reasons);
  if (rootDiskGiB <= 0) {
    return refused({ message: `${role} flavor ${flavor} has no disk and ${role}_root_disk is 0`, hint: `set ${role}_root_disk (GiB) or choose a flavor with a disk` }, reasons);
  }
  reasons.push(`${role} flavor ${flavor} is diskless: root volume of ${rootDiskGiB} GiB`);
  return decided({ flavor, rootVolumeGiB: rootDiskGiB }, reasons);
}
