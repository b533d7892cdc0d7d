import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { OperationError } from '../../../lib/errors.js';
import { bundledFiles, bundledTemplate, readBundledObjects, readBundledText } from '../../../lib/render/bundled.js';
import { RenderError } from '../../../lib/render/template.js';
import { REFERENCE_DIR } from '../../support/reference.js';

/**
 * The files kaas ships under templates/, as the tsc-built CLI reads them (test/cli/bundle-equivalence
 * holds the bundled CLI's twin to the same output). The upstream manifests are compared with the
 * copies in ../shared/reference, read with yaml rather than with the code under test.
 */
const REFERENCE = REFERENCE_DIR;
const NGINX = ['deploy-cloud-v1.14.5.yaml', 'deploy-cloud-v1.15.1.yaml', 'deploy-cloud-v1.9.6.yaml'];

describe('the files kaas ships under templates/', () => {
  it('lists a folder sorted by name, as upstream names its releases', () => {
    expect(bundledFiles('ingress/upstream')).toEqual(NGINX);
  });

  it.each(NGINX)('ships ingress-nginx %s as upstream published it, every document parsed', (file) => {
    const text = readFileSync(path.join(REFERENCE, 'ingress-nginx', file), 'utf8');
    expect(readBundledText('ingress', 'upstream', file)).toBe(text);
    expect(readBundledObjects('ingress', 'upstream', file)).toEqual(parseAllDocuments(text).map((d) => d.toJS()).filter(Boolean));
  });

  it('refuses a shipped file that holds no Kubernetes objects, naming it under templates/', () => {
    expect(() => readBundledObjects('crds', 'cluster.x-k8s.io_Cluster.v1beta2.json'))
      .toThrow(new RenderError('templates/crds/cluster.x-k8s.io_Cluster.v1beta2.json does not hold valid Kubernetes objects'));
  });

  it('compiles a template under its path, which names it', () => {
    const t = bundledTemplate('cloud-conf/cloud.conf.hbs');
    expect(t.name).toBe('cloud-conf/cloud.conf.hbs');
    expect(t.variables).toEqual(['cloudName', 'global', 'hasGlobal', 'loadBalancer']);
  });

  it.each<[string, () => unknown, RegExp]>([
    ['a template', () => bundledTemplate('cluster/99-nope.yaml.hbs'), /^cannot read template cluster\/99-nope\.yaml\.hbs: ENOENT/],
    ['a file', () => readBundledText('ingress', 'upstream', 'nope.yaml'), /^bundled file templates\/ingress\/upstream\/nope\.yaml is missing: ENOENT/],
    ['a manifest', () => readBundledObjects('ingress', 'nope.yaml'), /^bundled file templates\/ingress\/nope\.yaml is missing: ENOENT/],
  ])('a missing %s is an install problem, exit 1, saying what to do', (_n, read, message) => {
    expect(read).toThrow(OperationError);
    expect(read).toThrow(message);
    expect(read).toThrow(expect.objectContaining({ exitCode: 1, hint: 'reinstall kaas: its templates/ folder is incomplete' }));
  });
});
