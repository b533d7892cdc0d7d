import { UsageError } from '../errors.js';
import { redact, registerSecret, registerUrlSecrets } from '../redact.js';
import { hiddenNote, visibleName } from '../visible.js';
import { authCacheDir } from './auth-cache.js';
import { readCloudsFiles, type CloudsFiles, type CloudsFilesContext } from './clouds-files.js';

/** Keystone v3 credentials of one cloud, in keystoneauth's parameter names (camel-cased). */
export interface CloudAuth {
  kind: 'password' | 'application_credential';
  authUrl: string;
  username?: string;
  userId?: string;
  password?: string;
  userDomainName?: string;
  userDomainId?: string;
  projectName?: string;
  projectId?: string;
  projectDomainName?: string;
  projectDomainId?: string;
  applicationCredentialId?: string;
  applicationCredentialName?: string;
  applicationCredentialSecret?: string;
}

/** Everything kaas needs to reach one cloud. Secrets in it are registered for redaction. */
export interface CloudConfig {
  /** clouds.yaml entry name, or "envvars" for plain OS_* variables. */
  name: string;
  /** Where it came from: the clouds file (plus secure file) or "environment". */
  source: string;
  auth: CloudAuth;
  regionName?: string;
  interface: 'public' | 'internal' | 'admin';
  /** Path of a CA bundle (PEM). */
  cacert?: string;
  /** false = TLS certificates are not checked (clouds.yaml `verify: false` or `insecure: true`). */
  verify: boolean;
  /** Where Keystone tokens are kept between runs, when clouds.yaml says `cache: {auth: true}` (auth-cache.ts); else tokens are not kept. */
  authCacheDir?: string;
}

/** Inputs of cloud resolution; `cloudFlag` (--cloud) beats `cloudSetting` beats OS_CLOUD. */
export interface ResolveCloudOptions extends CloudsFilesContext {
  cloudFlag?: string;
  cloudSetting?: string;
  /**
   * A command that changes things (a real create-cluster, delete-cluster, apply-ingress, …): it never
   * takes the only clouds.yaml entry unasked. Read-only runs take it and `note` which they took.
   */
  mutating?: boolean;
  /** Told which cloud was picked when none was named (a `note:` line on stderr). */
  note?: (msg: string) => void;
}

/** A mutating run with no cloud named and one clouds.yaml entry (exit 2): see onlyEntryVerdict. */
export class CloudNotNamedError extends UsageError {}

/**
 * The only clouds.yaml entry when no cloud is named (no --cloud, cloud setting, OS_CLOUD or OS_*
 * variables): a read-only run uses it and says so; a mutating run refuses, as the openstack CLI
 * does, since it would act on whatever cloud the file happens to hold. Pure.
 */
export function onlyEntryVerdict(name: string, source: string, mutating: boolean): { note: string } | { refusal: CloudNotNamedError } {
  const how = `set cloud: ${name} in the environment file, export OS_CLOUD=${name}, or pass --cloud ${name}`;
  if (!mutating) return { note: `note: using cloud ${name}, the only entry of ${source} (no --cloud, cloud setting or OS_CLOUD); a command that changes things needs it named: ${how}` };
  return {
    refusal: new CloudNotNamedError(`no cloud named: kaas does not pick the only entry of ${source} (${name}) for a command that changes things`, {
      problems: [`clouds defined: ${visibleName(name)}`],
      hint: how,
    }),
  };
}

const AUTH_TYPES: Record<string, CloudAuth['kind']> = {
  password: 'password',
  v3password: 'password',
  v3applicationcredential: 'application_credential',
};

const AUTH_KEYS = [
  'auth_url', 'username', 'user_id', 'password', 'user_domain_name', 'user_domain_id', 'project_name',
  'project_id', 'project_domain_name', 'project_domain_id', 'application_credential_id',
  'application_credential_name', 'application_credential_secret',
];

/**
 * Maps OS_* variables to a clouds.yaml-shaped entry (the "envvars" cloud of openstacksdk). Unset and
 * empty variables alike leave a key undefined or empty, which normalizeCloudEntry reads as absent.
 */
export function cloudEntryFromEnv(environ: NodeJS.ProcessEnv): Record<string, unknown> | undefined {
  if (!environ.OS_AUTH_URL) return undefined;
  const auth = Object.fromEntries(AUTH_KEYS.map((k) => [k, environ[`OS_${k.toUpperCase()}`]]));
  // Legacy spellings still written by many openrc files.
  auth.project_name ||= environ.OS_TENANT_NAME;
  auth.project_id ||= environ.OS_TENANT_ID;
  return {
    auth,
    auth_type: environ.OS_AUTH_TYPE,
    region_name: environ.OS_REGION_NAME,
    interface: environ.OS_INTERFACE || environ.OS_ENDPOINT_TYPE,
    cacert: environ.OS_CACERT,
    insecure: /^(1|true|yes)$/i.test(environ.OS_INSECURE ?? ''),
  };
}

/** A YAML scalar as a string: numbers (unquoted IDs) are spelled out, empty strings count as unset. */
function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** openstacksdk's `regions:` list form: without region_name the first entry (a name or {name: …}) is used. */
function firstRegion(regions: unknown): string | undefined {
  const r: unknown = Array.isArray(regions) ? regions[0] : undefined;
  return typeof r === 'string' ? r : str((r as { name?: unknown } | null | undefined)?.name);
}

/**
 * What is wrong with an auth_url, with the fix, or undefined. Without this a URL with no scheme
 * ("keystone:5000/v3" parses as scheme "keystone:"), ftp:// or port 99999 failed later with exit 1
 * and no hint. The URL is shown with its userinfo redacted.
 */
export function authUrlProblem(url: string): string | undefined {
  const shown = redact(url);
  const example = 'https://<keystone host>:5000/v3';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    return `auth.auth_url "${shown}" has no http:// or https:// in front: write it as https://${shown.replace(/^\/*/, '')} (e.g. ${example})`;
  }
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return `auth.auth_url "${shown}" uses ${scheme}://; Keystone speaks https:// (or http://): e.g. ${example}`;
  const port = /^[a-z]+:\/\/(?:[^@/]*@)?(?:\[[^\]]*\]|[^:/?#]*):(\d*)(?:[/?#]|$)/i.exec(url)?.[1];
  if (port !== undefined && port !== '' && Number(port) > 65535) return `auth.auth_url "${shown}" has port ${port}; a port is 1 to 65535 (Keystone usually listens on 5000 or 443)`;
  // WHATWG URL turns "https:///v3" into host "v3"; the raw text shows the host is missing.
  if (/^[a-z]+:\/\/(?:[^@/]*@)?(?:[:/?#]|$)/i.test(url)) return `auth.auth_url "${shown}" has no host name: e.g. ${example}`;
  if (!URL.canParse(url)) return `auth.auth_url "${shown}" is not a valid URL: e.g. ${example}`;
  if (!new URL(url).hostname) return `auth.auth_url "${shown}" has no host name: e.g. ${example}`;
  return undefined;
}

/**
 * Validates one clouds.yaml entry and turns it into a CloudConfig, listing every problem found.
 * Registers the password / application-credential secret for redaction at once.
 */
export function normalizeCloudEntry(name: string, source: string, entry: Record<string, unknown>): CloudConfig {
  const authIsMap = typeof entry.auth === 'object' && entry.auth !== null && !Array.isArray(entry.auth);
  const a = (authIsMap ? entry.auth : {}) as Record<string, unknown>;
  registerSecret(a.password);
  registerSecret(a.application_credential_secret);
  registerUrlSecrets(a.auth_url);
  const problems: string[] = [];
  const authType = str(entry.auth_type) ?? (a.application_credential_secret ? 'v3applicationcredential' : 'password');
  const kind = AUTH_TYPES[authType];
  if (!kind) problems.push(`auth_type "${authType}" is not supported (use password, v3password or v3applicationcredential)`);
  const auth: CloudAuth = {
    // Stryker disable next-line StringLiteral: placeholder only; an unknown auth_type is a problem, refused below before auth is used
    kind: kind ?? 'password',
    authUrl: str(a.auth_url) ?? '',
    username: str(a.username), userId: str(a.user_id), password: str(a.password),
    userDomainName: str(a.user_domain_name) ?? str(a.default_domain_name),
    userDomainId: str(a.user_domain_id) ?? str(a.default_domain_id),
    projectName: str(a.project_name), projectId: str(a.project_id),
    projectDomainName: str(a.project_domain_name) ?? str(a.default_domain_name),
    projectDomainId: str(a.project_domain_id) ?? str(a.default_domain_id),
    applicationCredentialId: str(a.application_credential_id),
    applicationCredentialName: str(a.application_credential_name),
    applicationCredentialSecret: str(a.application_credential_secret),
  };
  const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : typeof v);
  for (const k of ['auth_type', 'region_name', 'interface', 'cacert']) {
    const v = entry[k];
    if (v !== undefined && v !== null && typeof v !== 'string') problems.push(`${k} must be a string, found ${kindOf(v)}`);
  }
  if (entry.auth !== undefined && !authIsMap) problems.push(`auth must be a mapping (auth_url, username, …), found ${kindOf(entry.auth)}`);
  // Say which key has the wrong shape (never its value: it may be a secret) instead of "missing".
  for (const [k, v] of Object.entries(a)) {
    if (v !== undefined && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') problems.push(`auth.${k} must be a string, found ${kindOf(v)}`);
  }
  if (!auth.authUrl && (a.auth_url === undefined || typeof a.auth_url === 'string')) problems.push('auth.auth_url is missing');
  else if (auth.authUrl) {
    const bad = authUrlProblem(auth.authUrl);
    if (bad) problems.push(bad);
  }
  if (kind === 'password') {
    if (!auth.username && !auth.userId) problems.push('auth.username (or auth.user_id) is missing');
    if (!auth.password) problems.push('auth.password is missing');
    if (!auth.projectName && !auth.projectId) problems.push('auth.project_name (or auth.project_id) is missing');
  }
  if (kind === 'application_credential') {
    if (!auth.applicationCredentialSecret) problems.push('auth.application_credential_secret is missing');
    if (!auth.applicationCredentialId && !auth.applicationCredentialName)
      problems.push('auth.application_credential_id (or _name with user_id/username) is missing');
    if (!auth.applicationCredentialId && auth.applicationCredentialName && !auth.userId && !auth.username)
      problems.push('auth.application_credential_name needs auth.user_id or auth.username');
  }
  const iface = (str(entry.interface) ?? 'public').replace(/URL$/, '');
  if (!['public', 'internal', 'admin'].includes(iface)) problems.push(`interface "${iface}" is not one of public|internal|admin`);
  if (problems.length) {
    throw new UsageError(`cloud "${name}" (${source}) is incomplete`, {
      problems: problems.sort(),
      hint: 'fix the cloud entry in clouds.yaml / secure.yaml, or the OS_* variables',
    });
  }
  const insecure = entry.insecure === true || entry.insecure === 'true';
  const verify = !(entry.verify === false || entry.verify === 'false' || insecure);
  return {
    name, source, auth,
    regionName: str(entry.region_name) ?? firstRegion(entry.regions),
    interface: iface as CloudConfig['interface'],
    cacert: str(entry.cacert),
    verify,
  };
}

/**
 * Resolves the cloud to talk to, as openstacksdk would: --cloud, then the `cloud` setting, then
 * OS_CLOUD name an entry of clouds.yaml (+ secure.yaml); with none named, plain OS_* variables,
 * else the only entry of clouds.yaml (read-only runs only: onlyEntryVerdict). Throws a UsageError (exit 2) naming the choices otherwise.
 */
export function resolveCloudConfig(opts: ResolveCloudOptions): CloudConfig {
  const files = readCloudsFiles(opts);
  const cloud = pickCloud(opts, files);
  return files.cacheAuth ? { ...cloud, authCacheDir: authCacheDir(opts.environ, opts.home) } : cloud;
}

function pickCloud(opts: ResolveCloudOptions, files: CloudsFiles): CloudConfig {
  const source = [files.cloudsFile, files.secureFile].filter(Boolean).join(' + ');
  const named = opts.cloudFlag || opts.cloudSetting || opts.environ.OS_CLOUD;
  const known = Object.keys(files.clouds).sort();
  if (named) {
    const entry = files.clouds[named];
    if (Object.prototype.hasOwnProperty.call(files.clouds, named) && (typeof entry !== 'object' || entry === null || Array.isArray(entry))) {
      throw new UsageError(`clouds.${named} in ${source} is ${entry === null ? 'empty (null)' : `not a mapping (${Array.isArray(entry) ? 'a list' : typeof entry})`}`, {
        hint: `give clouds.${named} its settings: auth: {auth_url: …, …}, region_name: …`,
      });
    }
    if (!entry) {
      const where = files.cloudsFile || files.secureFile
        ? `in ${source}`
        : 'anywhere: no clouds.yaml found (searched OS_CLIENT_CONFIG_FILE, ./, ~/.config/openstack/, /etc/openstack/)';
      throw new UsageError(`cloud "${visibleName(named)}" is not defined ${where}${hiddenNote(named)}`, {
        problems: known.length ? [`clouds defined: ${known.map(visibleName).join(', ')}`] : [],
        hint: 'name a cloud defined in clouds.yaml (--cloud, the cloud setting or OS_CLOUD), or set OS_CLIENT_CONFIG_FILE',
      });
    }
    return normalizeCloudEntry(named, source, entry);
  }
  const fromEnv = cloudEntryFromEnv(opts.environ);
  if (fromEnv) return normalizeCloudEntry(opts.environ.OS_CLOUD_NAME || 'envvars', 'environment', fromEnv);
  if (known.length === 1) {
    const verdict = onlyEntryVerdict(known[0], source, opts.mutating ?? false);
    if ('refusal' in verdict) throw verdict.refusal;
    const cloud = normalizeCloudEntry(known[0], source, files.clouds[known[0]]);
    opts.note?.(verdict.note);
    return cloud;
  }
  throw new UsageError(known.length ? `several clouds in ${source}, none chosen` : 'no OpenStack cloud configured', {
    problems: known.length ? [`clouds defined: ${known.map(visibleName).join(', ')}`] : [],
    hint: known.length
      ? 'choose one with --cloud NAME, the cloud setting or OS_CLOUD'
      : 'create clouds.yaml (./, ~/.config/openstack/ or /etc/openstack/) or source an openrc file (OS_AUTH_URL, …)',
  });
}
