import path from 'node:path';

/**
 * Where environment files live when --settings-dir is not given. Precedence, first wins:
 * `--settings-dir`, then `KAAS_SETTINGS_DIR`, then `./settings` when that directory exists, then the
 * user's own directory `$XDG_CONFIG_HOME/kaas` (else `~/.config/kaas`) — so a project checkout keeps
 * its settings beside it and a user without one still finds theirs from anywhere.
 */

/** Why a settings directory was chosen, for `settings show`/`init` and error messages. */
export type SettingsDirSource = 'flag' | 'env KAAS_SETTINGS_DIR' | './settings' | 'user';

/** The chosen directory (absolute) and where the choice came from. */
export interface SettingsDirChoice {
  dir: string;
  source: SettingsDirSource;
}

/** `$XDG_CONFIG_HOME/kaas`, else `~/.config/kaas` (a relative XDG_CONFIG_HOME is ignored, as the XDG spec says). */
export function userSettingsDir(environ: NodeJS.ProcessEnv, home: string): string {
  const xdg = environ.XDG_CONFIG_HOME;
  return xdg && path.isAbsolute(xdg) ? path.join(xdg, 'kaas') : path.join(home, '.config', 'kaas');
}

/** Picks the settings directory by the precedence above; `isDir` is the only file-system look. */
export function resolveSettingsDir(o: {
  flag?: string;
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  isDir: (p: string) => boolean;
}): SettingsDirChoice {
  if (o.flag) return { dir: path.resolve(o.cwd, o.flag), source: 'flag' };
  if (o.environ.KAAS_SETTINGS_DIR) return { dir: path.resolve(o.cwd, o.environ.KAAS_SETTINGS_DIR), source: 'env KAAS_SETTINGS_DIR' };
  const local = path.resolve(o.cwd, 'settings');
  if (o.isDir(local)) return { dir: local, source: './settings' };
  return { dir: userSettingsDir(o.environ, o.home), source: 'user' };
}
