import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { loadCapabilitiesFile } from '../../../lib/openstack/capabilities-file.js';
import { findEndpoint, stripVersionSuffix, type CatalogService } from '../../../lib/openstack/catalog.js';
import { compareVersions, highestVersion } from '../../../lib/openstack/octavia.js';
import { fixture } from '../../support/openstack-fixtures.js';
import { tempDir } from '../../support/temp.js';

const catalog: CatalogService[] = [
  {
    type: 'load-balancer',
    endpoints: [
      { interface: 'public', region_id: 'R1', url: 'https://lb.r1.example:9876/' },
      { interface: 'internal', region_id: 'R1', url: 'http://10.0.0.5:9876' },
      { interface: 'public', region: 'R2', url: 'https://lb.r2.example/load-balancer/v2.0' },
    ],
  },
];

describe('catalog endpoint selection', () => {
  it.each([
    ['public', 'R1', { found: true, url: 'https://lb.r1.example:9876' }],
    ['internal', 'R1', { found: true, url: 'http://10.0.0.5:9876' }],
    ['public', 'R2', { found: true, url: 'https://lb.r2.example/load-balancer/v2.0' }],
    ['public', undefined, { found: true, url: 'https://lb.r1.example:9876' }],
    ['admin', 'R1', { found: false, reason: 'the "load-balancer" service has no admin endpoint (interfaces: internal, public)' }],
    ['internal', 'R2', { found: false, reason: 'the "load-balancer" service has no internal endpoint in region R2 (regions: R1)' }],
  ])('%s in region %s', (iface, region, want) => {
    expect(findEndpoint(catalog, 'load-balancer', iface, region)).toEqual(want);
  });

  it('a service type absent from the catalog is a reason, not an error', () => {
    expect(findEndpoint(catalog, 'network', 'public', 'R1')).toEqual({ found: false, reason: 'the catalog has no "network" service' });
  });

  it.each([
    ['https://lb.example/load-balancer/v2.0', 'https://lb.example/load-balancer'],
    ['https://lb.example:9876/v2/', 'https://lb.example:9876'],
    ['https://lb.example:9876', 'https://lb.example:9876'],
  ])('strips the version suffix of %s', (url, root) => expect(stripVersionSuffix(url)).toBe(root));

  it('the Keystone api-ref catalog sample parses', () => {
    const c = fixture('keystone/get-service-catalog-response.json').catalog as CatalogService[];
    expect(findEndpoint(c, 'identity', 'public', 'RegionOne').found).toBe(true);
  });
});

describe('Octavia versions compare numerically', () => {
  it.each([
    ['2.9', '2.24', -1],
    ['2.24', '2.3', 1],
    ['v2.26', '2.26', 0],
  ])('%s vs %s', (a, b, sign) => expect(Math.sign(compareVersions(a, b))).toBe(sign));

  it('the api-ref sample (out-of-order `updated` of v2.7) yields its highest id', () => {
    expect(highestVersion(fixture('octavia/versions-get-resp.json').versions)).toMatch(/^2\.\d+$/);
    expect(highestVersion([{ id: 'v2.7', updated: '2018-01-25T12:00:00Z' }, { id: 'v2.10', updated: '2018-01-01T00:00:00Z' }])).toBe('2.10');
    expect(highestVersion([])).toBeUndefined();
  });
});

describe('--capabilities FILE', () => {
  const write = (text: string) => {
    const f = path.join(tempDir('kaas-caps-'), 'caps.json');
    fs.writeFileSync(f, text);
    return f;
  };
  const good = {
    cloud: 'c', detectedAt: '2026-01-01T00:00:00Z',
    octavia: { present: true, maxVersion: '2.26', providers: ['amphora', 'ovn'], wallabyOrLater: true, allowedCidrs: true },
    neutron: { present: true }, nova: { present: false, reason: 'x' },
    loadBalancer: { provider: 'ovn' },
  };

  it('reads what kaas detect -o json printed (the plan part is dropped)', () => {
    const caps = loadCapabilitiesFile(write(JSON.stringify(good)));
    expect(caps.octavia.providers).toEqual(['amphora', 'ovn']);
    expect('loadBalancer' in caps).toBe(false);
  });

  it('a wrong shape is exit 2 with every problem, sorted', () => {
    const bad = { ...good, octavia: { present: true, maxVersion: 2.26, providers: 'ovn' }, nova: undefined };
    try {
      loadCapabilitiesFile(write(JSON.stringify(bad)));
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).exitCode).toBe(2);
      expect((e as UsageError).problems).toEqual([
        'nova: must be a mapping',
        'octavia.allowedCidrs: must be true or false',
        'octavia.maxVersion: must be a string like "2.26"',
        'octavia.providers: must be a list of provider names',
        'octavia.wallabyOrLater: must be true or false',
      ]);
    }
  });

  it.each([
    [{ maxVersion: '2.23', wallabyOrLater: true, allowedCidrs: true }, ['octavia.wallabyOrLater: true contradicts maxVersion 2.23 (it is false from v2.24)']],
    [{ maxVersion: '2.26', wallabyOrLater: false, allowedCidrs: true }, ['octavia.wallabyOrLater: false contradicts maxVersion 2.26 (it is true from v2.24)']],
    [{ maxVersion: '2.9', wallabyOrLater: false, allowedCidrs: true }, ['octavia.allowedCidrs: true contradicts maxVersion 2.9 (it is false from v2.12)']],
  ])('a hand-edited octavia %j contradicting its own maxVersion is exit 2', (octavia, problems) => {
    const f = write(JSON.stringify({ ...good, octavia: { ...good.octavia, ...octavia } }));
    const err = (() => { try { loadCapabilitiesFile(f); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).problems).toEqual(problems);
  });

  it.each([['2.23', false, true], ['2.24', true, true], ['2.11', false, false], ['2.12', false, true]])('maxVersion %s with consistent facts is accepted', (maxVersion, wallabyOrLater, allowedCidrs) => {
    expect(loadCapabilitiesFile(write(JSON.stringify({ ...good, octavia: { ...good.octavia, maxVersion, wallabyOrLater, allowedCidrs } }))).octavia.maxVersion).toBe(maxVersion);
  });

  it('a missing file says how to make one', () => {
    expect(() => loadCapabilitiesFile('/nonexistent/caps.json')).toThrow(/cannot read --capabilities \/nonexistent\/caps.json: does not exist/);
  });
});

describe('--capabilities FILE: every wrong shape, exactly', () => {
  const write = (text: string) => {
    const f = path.join(tempDir('kaas-caps-'), 'caps.json');
    fs.writeFileSync(f, text);
    return f;
  };
  const octavia = { present: true, maxVersion: '2.26', providers: ['amphora', 'ovn'], wallabyOrLater: true, allowedCidrs: true };
  const good = { cloud: 'c', detectedAt: '2026-01-01T00:00:00Z', octavia, neutron: { present: true }, nova: { present: true } };
  const problemsOf = (doc: unknown) => {
    const f = write(JSON.stringify(doc));
    try {
      loadCapabilitiesFile(f);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toBe(`--capabilities ${f} is not a capabilities file`);
      expect((e as UsageError).hint).toBe('save one with: kaas detect -o json > capabilities.json, or fix the values above (a file that claims what the cloud lacks gives a plan that cannot work)');
      return (e as UsageError).problems;
    }
    return [];
  };

  it.each<[string, unknown, string[]]>([
    ['a list', [good], ['the document is not a mapping']],
    ['null (an empty file)', null, ['the document is not a mapping']],
    ['no cloud, no detectedAt', { ...good, cloud: undefined, detectedAt: 5 }, ['cloud: must be a string', 'detectedAt: must be a string (ISO time)']],
    ['octavia a list', { ...good, octavia: [octavia] }, ['octavia: must be a mapping']],
    ['octavia.present a string', { ...good, octavia: { ...octavia, present: 'yes' } }, ['octavia.present: must be true or false']],
    ['a provider that is no name', { ...good, octavia: { ...octavia, providers: ['amphora', 1] } }, ['octavia.providers: must be a list of provider names']],
    ['maxVersion with more parts', { ...good, octavia: { ...octavia, maxVersion: '2.26.1' } }, ['octavia.maxVersion: must be a string like "2.26"']],
    ['maxVersion with a v', { ...good, octavia: { ...octavia, maxVersion: 'v2.26' } }, ['octavia.maxVersion: must be a string like "2.26"']],
    ['present without maxVersion', { ...good, octavia: { ...octavia, maxVersion: undefined } }, ['octavia.maxVersion: missing although octavia.present is true']],
    ['neutron.present missing, nova null', { ...good, neutron: {}, nova: null }, ['neutron.present: must be true or false', 'nova: must be a mapping']],
  ])('%s', (_title, doc, problems) => {
    expect(problemsOf(doc)).toEqual(problems);
  });

  it.each([
    ['absent Octavia without maxVersion', { present: false, providers: [], wallabyOrLater: false, allowedCidrs: false }],
    ['a two-digit major version', { ...octavia, maxVersion: '10.0' }],
  ])('%s is accepted', (_title, oct) => {
    expect(loadCapabilitiesFile(write(JSON.stringify({ ...good, octavia: oct }))).octavia).toEqual(oct);
  });

  it('a file that is not YAML: the parser\'s first line', () => {
    const f = write('{"cloud": "c",\n  "octavia": [}\n');
    expect(() => loadCapabilitiesFile(f)).toThrow(new RegExp(`^--capabilities ${f} is neither JSON nor YAML: [^\\n]+$`));
  });

  it('a missing file: the reason and how to make one', () => {
    const err = (() => { try { loadCapabilitiesFile('/nonexistent/caps.json'); } catch (e) { return e as UsageError; } })();
    expect(err?.message).toBe('cannot read --capabilities /nonexistent/caps.json: does not exist');
    expect(err?.hint).toBe('save one with: kaas detect -o json > capabilities.json');
  });
});
