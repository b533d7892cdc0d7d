/**
 * Secret redaction. Every secret kaas reads (passwords, application-credential secrets, tokens)
 * is registered here as soon as it is read; everything written to the terminal or a log passes
 * through redact(). The registry is per process on purpose: one kaas run, one set of secrets.
 */
const secrets = new Set<string>();

/** Remembers a secret value so that it never appears in output. Short values are ignored. */
export function registerSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= 4) secrets.add(value);
}

/** Key names whose values are always secret, wherever they appear (JSON, YAML, INI, headers). */
export const SECRET_KEY_PATTERN =
  /(password|secret|token|x-auth-token|x-subject-token|authorization|credential_secret|private[-_]?key)/i;

/**
 * The userinfo of a URL (`http://user:pw@host`): clouds.yaml auth_url, catalog endpoints or a
 * kubeconfig server may carry a password there, so it is hidden wherever a URL is printed.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"<>]*@/gi;

/** Registers the password (and the whole userinfo) of a URL as secrets, for where it is printed without its scheme. */
export function registerUrlSecrets(url: unknown): void {
  if (typeof url !== 'string') return;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^\s/?#@]*)@/i.exec(url.trim());
  if (!m) return;
  registerSecret(m[1]);
  const colon = m[1].indexOf(':');
  if (colon >= 0) {
    registerSecret(m[1].slice(colon + 1));
    try {
      registerSecret(decodeURIComponent(m[1].slice(colon + 1)));
    } catch {
      // not percent-encoded text: the raw form is registered
    }
  }
}

/** Replaces every registered secret in the text, and the userinfo of every URL, by `***`. */
export function redact(text: string): string {
  let out = text.replace(URL_USERINFO, '$1***@');
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join('***');
  }
  return out;
}

/** Deep copy of a value with secret-named keys and registered secrets replaced by `***`. */
export function redactValue<T>(value: T): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = SECRET_KEY_PATTERN.test(k) && v !== undefined && v !== null && v !== '' ? '***' : redactValue(v);
    }
    return out as T;
  }
  return value;
}

/** For tests: forget all registered secrets. */
export function clearSecrets(): void {
  secrets.clear();
}
