import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { clientIpsFor } from '../../../lib/gateway/migrate/client-ips.js';
import { convertIngresses, type NotConverted } from '../../../lib/gateway/migrate/convert.js';
import { serviceIndex } from '../../../lib/gateway/migrate/ports.js';
import { readManifestFiles, servicesIn, unpack } from '../../../lib/gateway/migrate/read.js';
import { validateGatewayObjects } from '../../../lib/gateway/schema.js';
import { BUNDLED_GATEWAY_VERSIONS } from '../../../lib/plan/gateway-versions.js';
import { stringifyDocuments } from '../../../lib/render/documents.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { kustomizeBuild } from './kustomize.js';

/**
 * The migrate-ingress corpus: real-world-shaped Ingresses (from the ingress-nginx docs' examples),
 * each with the expected Gateway API objects (expected.yaml, compared semantically) and the
 * expected not-converted list (not-converted.json). A case may hold the Services its named backend
 * ports resolve against (service.yaml); every named port must resolve (the testbed applies the output
 * of the whole folder to a real API server). Routes of Ingresses whose protection is not converted are
 * expected detached (the default of the conversion); client-IP lists convert under the example
 * environment's gateway plan (amphora with PROXY protocol: client IPs kept), as the testbed runs it.
 * Expected files are reviewed by hand; update on purpose only: KAAS_UPDATE_GOLDEN=1, then review the diff.
 */
const DIR = path.resolve(process.cwd(), 'test/fixtures/migrate');
const UPDATE = process.env.KAAS_UPDATE_GOLDEN === '1';
const GW = { name: 'kaas', namespace: 'envoy-gateway-system', httpListener: 'http', className: 'kaas' };
const clientIps = clientIpsFor(loadSettings({ settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd() }).values);
const cases = readdirSync(DIR).filter((d) => existsSync(path.join(DIR, d, 'ingress.yaml'))).sort();
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS()).filter((o) => o !== null);

describe('migrate-ingress corpus', () => {
  it('has at least 20 cases', () => expect(cases.length).toBeGreaterThanOrEqual(20));
  it('runs under a plan that keeps client IPs', () => expect(clientIps.kept).toBe(true));

  it.each(cases)('%s', (name) => {
    const objects = readManifestFiles(path.join(DIR, name));
    const c = convertIngresses(unpack(objects), GW, { services: serviceIndex(servicesIn(objects)), clientIps });
    expect(c.unresolvedPorts).toEqual([]);
    const expectedFile = path.join(DIR, name, 'expected.yaml');
    const notFile = path.join(DIR, name, 'not-converted.json');
    const skippedNote = { notConverted: c.notConverted, ...(c.unprotected.length ? { unprotected: c.unprotected } : {}), ...(c.secrets.length ? { secrets: c.secrets } : {}), skipped: c.skipped };
    if (UPDATE) {
      writeFileSync(expectedFile, stringifyDocuments(c.objects));
      writeFileSync(notFile, JSON.stringify(skippedNote, null, 2) + '\n');
    }
    expect(docs(stringifyDocuments(c.objects))).toEqual(docs(readFileSync(expectedFile, 'utf8')));
    expect(skippedNote).toEqual(JSON.parse(readFileSync(notFile, 'utf8')) as { notConverted: NotConverted[] });
    // Every object fits the bundled CRDs, and kubectl builds the set (names unique, objects well-formed).
    const report = validateGatewayObjects(BUNDLED_GATEWAY_VERSIONS[0], c.objects, name);
    expect(report.skipped).toEqual([]);
    if (c.objects.length) expect(kustomizeBuild(stringifyDocuments(c.objects)).length).toBe(c.objects.length);
  });
});
