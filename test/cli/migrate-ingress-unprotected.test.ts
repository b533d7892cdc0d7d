import { runKaas } from '../support/cli.js';

/** The built CLI: a protected Ingress whose protection is not converted stops migrate-ingress unless the user picks detach or allow. */
const CORPUS = 'test/fixtures/migrate';
const run = (...args: string[]) => runKaas(['migrate-ingress', '--env', 'example', '--settings-dir', 'settings', '--file', CORPUS, ...args]);

describe('kaas migrate-ingress and unprotected routes', () => {
  it('refuses the corpus as is (exit 2): nothing on stdout, each Ingress and annotation on stderr', () => {
    const r = run();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Ingress secure\/mtls-api, annotation nginx.ingress.kubernetes.io\/auth-tls-secret: /);
    expect(r.stderr).toMatch(/Ingress default\/external-auth, annotation nginx.ingress.kubernetes.io\/auth-url: /);
  });

  it('--detach-unprotected writes everything, those routes without parentRefs', () => {
    const r = run('--detach-unprotected');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/kaas.io\/detached: "not attached to the Gateway: the Ingress's auth-tls-secret/);
  });

  it('--detach-unprotected and --allow-unprotected together are refused', () => {
    const r = run('--detach-unprotected', '--allow-unprotected');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--detach-unprotected and --allow-unprotected exclude each other/);
  });
});
