import { checkWorkerCount } from '../../../lib/plan/cluster-shape.js';

const ALL_ON = { deploy_cindercsi: true, deploy_metrics: true, deploy_cert_manager: false, deploy_nginx_ingress: true, deploy_gateway: true } as const;
const ALL_OFF = { deploy_cindercsi: false, deploy_metrics: false, deploy_cert_manager: false, deploy_nginx_ingress: false, deploy_gateway: false } as const;

describe('checkWorkerCount: worker_count 0 only when every add-on runs on control-plane nodes', () => {
  it.each<[string, Parameters<typeof checkWorkerCount>[0], string | undefined]>([
    ['workers: fine', { worker_count: 3, ...ALL_ON }, undefined],
    ['no workers, the default add-ons: refused, each named', { worker_count: 0, ...ALL_ON },
      'worker_count is 0, but the Cinder CSI controller, metrics-server, ingress-nginx, Envoy Gateway cannot run on control-plane nodes (no toleration of node-role.kubernetes.io/control-plane:NoSchedule): their pods would stay Pending|set worker_count to 1 or more, or turn off deploy_cindercsi: false, deploy_metrics: false, deploy_nginx_ingress: false, deploy_gateway: false'],
    ['no workers, a pinned CSI version still counts', { worker_count: 0, ...ALL_OFF, deploy_cindercsi: 'v1.33.0' }, 'the Cinder CSI controller cannot run'],
    ['no workers, cert-manager on', { worker_count: 0, ...ALL_OFF, deploy_cert_manager: true }, 'cert-manager cannot run'],
    ['no workers and none of them: fine', { worker_count: 0, ...ALL_OFF }, undefined],
  ])('%s', (_n, s, refusal) => {
    const d = checkWorkerCount(s);
    if (!refusal) return expect(d.ok).toBe(true);
    const [message, hint] = refusal.split('|');
    expect(!d.ok && d.refusals[0].message).toContain(message);
    if (hint) expect(!d.ok && d.refusals[0].hint).toBe(hint);
  });
});
