/**
 * Preflight results: each check is ok, failed, or skipped with the reason it could not run (a
 * service missing from the catalog, no cloud access during a dry-run). Skipped checks never block a
 * dry-run; failed ones block everything.
 */

/** One preflight check and its outcome. */
export interface Check {
  name: string;
  status: 'ok' | 'failed' | 'skipped';
  detail: string;
}

/** An ordered list of checks that the use cases append to. */
export class CheckList {
  readonly items: Check[] = [];

  /** Records a passed check. */
  ok(name: string, detail: string): void {
    this.items.push({ name, status: 'ok', detail });
  }

  /** Records a failed check. */
  failed(name: string, detail: string): void {
    this.items.push({ name, status: 'failed', detail });
  }

  /** Records a check that could not run, and why. */
  skipped(name: string, reason: string): void {
    this.items.push({ name, status: 'skipped', detail: reason });
  }

  /** The failed checks. */
  get failures(): Check[] {
    return this.items.filter((c) => c.status === 'failed');
  }

  /** One line per check, as printed on stderr: `✓ image: …`, `✗ …`, `- skipped: …`. */
  lines(): string[] {
    return this.items.map((c) => `${c.status === 'ok' ? '✓' : c.status === 'failed' ? '✗' : '-'} ${c.name}: ${c.status === 'skipped' ? `skipped: ${c.detail}` : c.detail}`);
  }
}

/**
 * Runs a cloud lookup, turning "could not ask" into a skipped check (returns undefined) and a
 * thrown error into a failed check (also undefined) — unless `strict`, where it is rethrown.
 */
export async function lookup<T>(checks: CheckList, name: string, fn: (() => Promise<T>) | undefined, why: string, strict: boolean): Promise<T | undefined> {
  if (!fn) {
    checks.skipped(name, why);
    return undefined;
  }
  try {
    return await fn();
  } catch (e) {
    const missing = (e as Error).constructor?.name === 'ServiceMissing';
    if (missing) {
      checks.skipped(name, (e as Error).message);
      return undefined;
    }
    if (strict) throw e;
    checks.skipped(name, `the cloud could not be asked: ${(e as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
