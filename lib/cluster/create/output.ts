import type { OutputFile } from '../../fs/output-dir.js';
import { redact } from '../../redact.js';
import { stringifyDocuments, type KubeObject } from '../../render/documents.js';

/**
 * What a dry-run produces: the manifests that would be applied, written to a directory (files
 * holding secrets mode 0600) or printed on stdout with secrets redacted.
 */

/** Files of a dry-run: the Cluster API objects, the add-ons, cloud.conf. */
export function dryRunFiles(cluster: KubeObject[], addons: { name: string; objects: KubeObject[] }[], cloudConf: string): OutputFile[] {
  const hasSecret = (objs: KubeObject[]) => objs.some((o) => o.kind === 'Secret');
  return [
    { name: 'cluster.yaml', text: stringifyDocuments(cluster), secret: hasSecret(cluster) },
    ...addons.map((a) => ({ name: `addon-${a.name}.yaml`, text: stringifyDocuments(a.objects), secret: hasSecret(a.objects) })),
    { name: 'cloud.conf', text: cloudConf, secret: true },
  ];
}

/** The files as one stream for stdout: manifests as multi-document YAML, secrets redacted. */
export function stdoutText(files: OutputFile[]): string {
  return redact(files.filter((f) => f.name.endsWith('.yaml')).map((f) => `# ${f.name}\n${f.text}`).join(''));
}
