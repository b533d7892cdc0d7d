import { UsageError } from '../../errors.js';
import type { Kubectl } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import type { Conversion } from './convert.js';
import { HTPASSWD_HASHES, htpasswdCommand } from './security.js';

/**
 * migrate-ingress never puts a protected Ingress's route on the public Gateway without its protection:
 * the decisions around Conversion.unprotected (refuse, detach, or attach on explicit request) and the
 * `.htpasswd` Secrets converted basic auth needs (named with the command that makes them; kaas never
 * reads or copies their values).
 */

/** What the user said about routes whose protection is not converted. */
export type UnprotectedMode = 'refuse' | 'detach' | 'attach';

/** The refusal (exit 2, nothing written or applied) when protection is lost and the user said nothing. */
export function unprotectedError(c: Conversion): UsageError {
  const ingresses = new Set(c.unprotected.map((u) => u.ingress));
  return new UsageError(`${ingresses.size} Ingress(es) restrict access in ways the Gateway API objects would not enforce; attached to the Gateway their routes would be open to anyone who reaches it, so nothing was written or applied`, {
    problems: c.unprotected.map((u) => `Ingress ${u.ingress}, annotation ${u.annotation}: ${u.reason}`),
    hint: 'protect those routes by hand (SecurityPolicy, ClientTrafficPolicy), or re-run with --detach-unprotected (their routes are written without parentRefs; attach them once protected) or --allow-unprotected (attached anyway: open to anyone)',
  });
}

/** Says what happens to unprotected routes in the chosen mode (stderr). */
export function reportUnprotected(c: Conversion, mode: UnprotectedMode, logger: Logger): void {
  const ingresses = [...new Set(c.unprotected.map((u) => u.ingress))];
  if (!ingresses.length) return;
  if (mode === 'detach') logger.warn(`routes of ${ingresses.join(', ')} are written without parentRefs (annotation kaas.io/detached says why): their protection is not converted; attach them once it is in place`);
  if (mode === 'attach') logger.warn(`--allow-unprotected: routes of ${ingresses.join(', ')} are attached to the Gateway WITHOUT their ${[...new Set(c.unprotected.map((u) => u.annotation.replace(/^.*\//, '')))].join(', ')}: open to anyone who reaches it`);
}

/** The instructions for the `.htpasswd` Secrets basic auth needs (stderr lines). */
export function secretInstructions(c: Conversion): string[] {
  if (!c.secrets.length) return [];
  return [
    `basic auth: Envoy Gateway reads the key .htpasswd; create ${c.secrets.length === 1 ? 'this Secret' : 'these Secrets'} from ingress-nginx's auth Secret${c.secrets.length === 1 ? '' : 's'} before applying (bash; kaas copies no secret values):`,
    ...c.secrets.map((s) => `  ${htpasswdCommand(s)}`),
    `  ${HTPASSWD_HASHES}`,
  ];
}

/** Before --apply: each `.htpasswd` Secret exists with that key (read as present/absent only, never its value); else exit 2, nothing applied. */
export async function requireHtpasswdSecrets(c: Conversion, kubectl: Kubectl): Promise<void> {
  const missing: string[] = [];
  for (const s of c.secrets) {
    const r = await kubectl.run(['get', 'secret', s.name, '--namespace', s.namespace, '--ignore-not-found', '-o', 'go-template={{with .data}}{{if index . ".htpasswd"}}present{{end}}{{end}}']);
    if (r.stdout.trim() !== 'present') missing.push(`Secret ${s.namespace}/${s.name} (key .htpasswd) for the basic auth of Ingress ${s.ingress}: ${htpasswdCommand(s)}`);
  }
  if (!missing.length) return;
  throw new UsageError(`${missing.length} Secret(s) that converted basic auth reads do not exist (or lack the key .htpasswd): Envoy Gateway would not accept the policy; nothing was applied`, {
    problems: missing,
    hint: `create them with the commands above (bash), then re-run; ${HTPASSWD_HASHES}`,
  });
}
