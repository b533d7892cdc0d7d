import { OperationError } from '../errors.js';
import { registerSecret } from '../redact.js';
import type { CatalogService } from './catalog.js';
import { joinUrl } from './catalog.js';
import type { CloudAuth } from './cloud-config.js';
import type { HttpClient } from './http.js';

/** A Keystone v3 token and what came with it. One per kaas run. */
export interface KeystoneSession {
  token: string;
  expiresAt?: string;
  projectId?: string;
  projectName?: string;
  userId?: string;
  catalog: CatalogService[];
}

const domain = (id?: string, name?: string) => (id ? { id } : name ? { name } : { id: 'default' });

/**
 * The body of POST /v3/auth/tokens for password or application-credential auth. Application
 * credentials must not request a scope (Keystone answers 401); their token is scoped already.
 */
export function buildAuthBody(a: CloudAuth): unknown {
  if (a.kind === 'application_credential') {
    const cred: Record<string, unknown> = { secret: a.applicationCredentialSecret };
    if (a.applicationCredentialId) cred.id = a.applicationCredentialId;
    else {
      cred.name = a.applicationCredentialName;
      cred.user = a.userId ? { id: a.userId } : { name: a.username, domain: domain(a.userDomainId, a.userDomainName) };
    }
    return { auth: { identity: { methods: ['application_credential'], application_credential: cred } } };
  }
  const user = a.userId
    ? { id: a.userId, password: a.password }
    : { name: a.username, domain: domain(a.userDomainId, a.userDomainName), password: a.password };
  const project = a.projectId ? { id: a.projectId } : { name: a.projectName, domain: domain(a.projectDomainId, a.projectDomainName) };
  return { auth: { identity: { methods: ['password'], password: { user } }, scope: { project } } };
}

/** The token URL for an auth_url given with or without "/v3" (plain host URLs are common in openrc files). */
export function tokenUrl(authUrl: string): string {
  const root = authUrl.replace(/\/+$/, '');
  return /\/v3$/.test(root) ? joinUrl(root, 'auth/tokens') : joinUrl(root.replace(/\/v2\.0$/, ''), 'v3/auth/tokens');
}

/**
 * Authenticates once: the token comes from the X-Subject-Token header and is registered for
 * redaction before anything can print it; the catalog comes from the body.
 */
export async function authenticate(http: HttpClient, auth: CloudAuth): Promise<KeystoneSession> {
  const res = await http.send<{ token: Record<string, any> }>({
    method: 'POST', url: tokenUrl(auth.authUrl), service: 'Keystone', body: buildAuthBody(auth), expect: [201, 200], retry: true,
  });
  const token = res.headers['x-subject-token'];
  registerSecret(token);
  if (!token) throw new OperationError(`Keystone at ${auth.authUrl} answered without an X-Subject-Token header`, { hint: 'is auth_url really a Keystone v3 endpoint?' });
  const t = res.data?.token ?? {};
  return {
    token,
    expiresAt: t.expires_at,
    projectId: t.project?.id,
    projectName: t.project?.name,
    userId: t.user?.id,
    catalog: Array.isArray(t.catalog) ? t.catalog : [],
  };
}
