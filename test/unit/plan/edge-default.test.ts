import { decideEdgeDefaults, NEW_CLUSTER_EDGE, type EdgeKnowledge, type EdgeSwitch } from '../../../lib/plan/edge-default.js';
import { edgeKnowledge, unsetEdgeSwitches, withEdgeDefaults } from '../../../lib/state/edge-state.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { tempDir } from '../../support/cli.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const BOTH: EdgeSwitch[] = ['deploy_nginx_ingress', 'deploy_gateway'];
const NEW: EdgeKnowledge = { cluster: 'new' };
const runs = (ingressNginx: boolean, gateway: boolean): EdgeKnowledge => ({ cluster: 'existing', runs: { ingressNginx, gateway }, source: 'test' });
const UNKNOWN: EdgeKnowledge = { cluster: 'existing' };

describe('decideEdgeDefaults: new clusters get the Gateway, existing ones keep what runs (issue 33 §3)', () => {
  it('the defaults of new clusters are the settings table\'s', async () => {
    const { SETTINGS } = await import('../../../lib/settings/table.js');
    for (const k of BOTH) expect(SETTINGS.find((d) => d.key === k)!.default).toBe(NEW_CLUSTER_EDGE[k]);
  });

  it.each([
    // unset switches, what kaas knows → values decided, the start of each note
    [BOTH, NEW, { deploy_nginx_ingress: false, deploy_gateway: true }, [/^deploy_nginx_ingress is not set: a new cluster does not get ingress-nginx/, /^deploy_gateway is not set: a new cluster gets the Gateway API edge/]],
    // a cluster created with the old default: ingress-nginx kept, no Gateway added
    [BOTH, runs(true, false), { deploy_nginx_ingress: true, deploy_gateway: false }, [/runs ingress-nginx \(test\), so kaas keeps it/, /does not run the Gateway API edge \(Envoy Gateway\) \(test\), so kaas adds none/]],
    // a cluster created with the new default: as a new one
    [BOTH, runs(false, true), { deploy_nginx_ingress: false, deploy_gateway: true }, [/does not run ingress-nginx .*as new clusters would; kept/, /runs the Gateway API edge .*as new clusters would; kept/]],
    // mid-migration: both kept
    [BOTH, runs(true, true), { deploy_nginx_ingress: true, deploy_gateway: true }, [/keeps it/, /kept/]],
    // nothing runs (a cluster without an edge): nothing added
    [BOTH, runs(false, false), { deploy_nginx_ingress: false, deploy_gateway: false }, [/kept/, /adds none/]],
    // exists, but what it runs is unknown: nothing applied, so nothing is added or lost
    [BOTH, UNKNOWN, { deploy_nginx_ingress: false, deploy_gateway: false }, [/cannot tell whether cluster demo runs ingress-nginx: it applies none/, /cannot tell .*Envoy Gateway\): it applies none/]],
    // a set switch is never decided here, whatever runs
    [['deploy_gateway'], runs(true, false), { deploy_gateway: false }, [/adds none/]],
    [['deploy_nginx_ingress'], NEW, { deploy_nginx_ingress: false }, [/a new cluster does not get ingress-nginx/]],
    [[], runs(true, true), {}, []],
  ] as [EdgeSwitch[], EdgeKnowledge, Record<string, boolean>, RegExp[]][])('unset %j, %j → %j', (unset, k, values, notes) => {
    const d = decideEdgeDefaults(unset, k, 'demo');
    expect(d.values).toEqual(values);
    expect(d.notes).toHaveLength(notes.length);
    notes.forEach((n, i) => expect(d.notes[i]).toMatch(n));
  });
});

describe('edgeKnowledge: the live cluster first, else kaas\'s records on this machine', () => {
  const facts = (kubeconfig: boolean, ingressNginx: boolean, gateway: boolean) => ({ kubeconfig, records: { ingressNginx, gateway }, dir: '/h/.kube/kaas/env.e/demo' });
  const live = (edgeServices: string[]) => ({ provider: 'amphora', lbServices: edgeServices, edgeServices });
  it.each([
    [facts(false, false, false), undefined, NEW],
    [facts(true, true, false), undefined, { cluster: 'existing', runs: { ingressNginx: true, gateway: false }, source: "kaas's records of what it applied, /h/.kube/kaas/env.e/demo" }],
    [facts(true, false, false), undefined, { cluster: 'existing', runs: { ingressNginx: false, gateway: false }, source: expect.stringContaining('records') }],
    // a record without the kubeconfig (moved away) still says the cluster exists
    [facts(false, false, true), undefined, { cluster: 'existing', runs: { ingressNginx: false, gateway: true }, source: expect.stringContaining('records') }],
    // live beats the records: an SCS cluster's ingress-nginx was applied by the scripts, not kaas
    [facts(true, false, false), live(['ingress-nginx/ingress-nginx-controller']), { cluster: 'existing', runs: { ingressNginx: true, gateway: false }, source: 'its edge Services, read live' }],
    [facts(false, false, false), live(['envoy-gateway-system/envoy-kaas-1234']), { cluster: 'existing', runs: { ingressNginx: false, gateway: true }, source: 'its edge Services, read live' }],
  ] as const)('%j, live %j → %j', (f, l, want) => {
    expect(edgeKnowledge(f, l)).toEqual(want);
  });
});

describe('withEdgeDefaults on resolved settings: only switches no layer set are decided', () => {
  const resolve = (file: string, sets: string[] = []) => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'e.yaml'), file);
    return loadSettings({ settingsDir: dir, env: 'e', cluster: 'demo', environ: {}, sets, cwd: dir });
  };

  it.each([
    ['clusters: {demo: {}}\n', [], BOTH],
    ['deploy_gateway: false\nclusters: {demo: {}}\n', [], ['deploy_nginx_ingress']],
    ['clusters: {demo: {deploy_nginx_ingress: true}}\n', ['deploy_gateway=true'], []],
  ])('%j with --set %j: unset %j', (file, sets, unset) => {
    expect(unsetEdgeSwitches(resolve(file, sets))).toEqual(unset);
  });

  it('a cluster created with the old default keeps ingress-nginx and gets no Gateway; the edge steps get the decision as --set', () => {
    const r = resolve('clusters: {demo: {}}\n');
    const e = withEdgeDefaults(r, 'demo', () => runs(true, false));
    expect([e.values.deploy_nginx_ingress, e.values.deploy_gateway]).toEqual([true, false]);
    expect(e.sets).toEqual(['deploy_nginx_ingress=true', 'deploy_gateway=false']);
  });

  it('set switches are not decided and nothing is read', () => {
    const r = resolve('deploy_nginx_ingress: v1.9.6\ndeploy_gateway: false\nclusters: {demo: {}}\n');
    const e = withEdgeDefaults(r, 'demo', () => { throw new Error('read although both are set'); });
    expect([e.values.deploy_nginx_ingress, e.values.deploy_gateway, e.sets]).toEqual(['v1.9.6', false, []]);
  });
});
