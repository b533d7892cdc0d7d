import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import type { Logger } from '../log.js';
import { registerSecret } from '../redact.js';
import type { CloudAuth } from './cloud-config.js';
import { buildAuthBody, tokenUrl, type KeystoneSession } from './keystone.js';

/**
 * Keystone tokens kept between runs, when clouds.yaml asks for it with openstacksdk's own switch:
 *
 *     cache:
 *       auth: true
 *     clouds:
 *       …
 *
 * (the top-level `cache:` of clouds.yaml, or of secure.yaml merged over it). openstacksdk keeps the
 * token in the system keyring; kaas keeps it in a file of its own, `$XDG_CACHE_HOME/kaas/auth/<key>.json`
 * (`~/.cache/kaas/auth/` without XDG_CACHE_HOME), written 0600 in a 0700 folder. A run then sends no
 * token request, and the services, which have seen the token already, answer without asking Keystone
 * to validate it again. Off unless asked, as in openstacksdk: the file holds a bearer token.
 *
 * The key is a SHA-256 of the token request (Keystone URL and body, secrets included), as
 * keystoneauth's cache id is: another password, user, project or Keystone never finds this token.
 * A token is taken while it has at least AUTH_CACHE_MARGIN_MS left; a service that refuses it (401:
 * revoked, or expired during a long run) makes the connection authenticate once more (connection.ts).
 */
export const AUTH_CACHE_MARGIN_MS = 5 * 60_000;

/** What is stored: the session as authenticate() returned it, and the format. */
interface Stored {
  kaasAuthCache: 1;
  session: KeystoneSession;
}

/** The folder of the token files: $XDG_CACHE_HOME/kaas/auth, else ~/.cache/kaas/auth (XDG base directories; a relative XDG_CACHE_HOME is ignored). */
export function authCacheDir(environ: NodeJS.ProcessEnv, home: string): string {
  const xdg = environ.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'kaas', 'auth');
}

/** The file name of a credential's token: a hash of the token request, never anything readable. Pure. */
export function authCacheKey(auth: CloudAuth): string {
  return createHash('sha256').update(JSON.stringify([tokenUrl(auth.authUrl), buildAuthBody(auth)])).digest('hex');
}

/** The session of a stored token file if it is well-formed and has at least `marginMs` left at `now`, else why not. Pure. */
export function storedSession(text: string, now: number, marginMs = AUTH_CACHE_MARGIN_MS): { session: KeystoneSession } | { unusable: string } {
  let doc: Partial<Stored>;
  try {
    doc = JSON.parse(text) as Partial<Stored>;
  } catch {
    return { unusable: 'not JSON' };
  }
  const s = doc?.session;
  if (doc?.kaasAuthCache !== 1 || !s || typeof s.token !== 'string' || !s.token || !Array.isArray(s.catalog)) return { unusable: 'not a kaas token file' };
  const expires = typeof s.expiresAt === 'string' ? Date.parse(s.expiresAt) : NaN;
  if (Number.isNaN(expires)) return { unusable: 'no expiry time' };
  if (expires - now < marginMs) return { unusable: expires <= now ? 'expired' : `expires in ${Math.round((expires - now) / 1000)} s` };
  return { session: s as KeystoneSession };
}

/** The token store of one folder. */
export interface AuthCache {
  /**
   * The stored session for these credentials, usable now, or undefined (missing, expired, unsafe or
   * damaged: then it says why at debug level, naming the folder only: the file name is a hash of the
   * credentials, which a trace must not hand to anyone who would guess a password against it).
   */
  load(auth: CloudAuth, now: number): KeystoneSession | undefined;
  /** Stores a fresh session; a failure is reported at debug level and never fails the run. */
  store(auth: CloudAuth, session: KeystoneSession): void;
  /** Removes the stored session (a service refused it). */
  drop(auth: CloudAuth): void;
}

/** The token store in `dir` (authCacheDir). */
export function fileAuthCache(dir: string, logger: Logger): AuthCache {
  const file = (auth: CloudAuth) => path.join(dir, `${authCacheKey(auth)}.json`);
  // An error of the file system names the file: its name (the key) is left out of the trace, as in load.
  const why = (err: unknown, auth: CloudAuth) => String((err as Error)?.message ?? err).replaceAll(authCacheKey(auth), '<key>');
  return {
    load(auth, now) {
      const f = file(auth);
      let text: string;
      try {
        // Only a file of this user that nobody else can read or write (as ssh treats its keys).
        const st = fs.lstatSync(f);
        const uid = process.getuid?.();
        if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) {
          logger.debug(`auth cache: the token file in ${dir} is not a private file of this user (mode ${(st.mode & 0o777).toString(8)}): not used`);
          return undefined;
        }
        text = fs.readFileSync(f, 'utf8');
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') logger.debug(`auth cache: the token file in ${dir} cannot be read (${code ?? 'error'}): asking Keystone`);
        return undefined;
      }
      const r = storedSession(text, now);
      if ('unusable' in r) {
        logger.debug(`auth cache: the stored token is not used (${r.unusable}): asking Keystone`);
        return undefined;
      }
      registerSecret(r.session.token);
      logger.debug(`auth cache: using the stored token (expires ${r.session.expiresAt})`);
      return r.session;
    },
    store(auth, session) {
      const stored: Stored = { kaasAuthCache: 1, session };
      try {
        writeFileAtomic(file(auth), `${JSON.stringify(stored)}\n`, { secret: true });
        logger.debug(`auth cache: token stored in ${dir} (expires ${session.expiresAt ?? '?'})`);
      } catch (err) {
        logger.debug(`auth cache: the token was not stored (${why(err, auth)})`);
      }
    },
    drop(auth) {
      try {
        fs.rmSync(file(auth), { force: true });
      } catch (err) {
        logger.debug(`auth cache: the refused token could not be removed (${why(err, auth)})`);
      }
    },
  };
}
