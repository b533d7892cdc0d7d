import { UsageError } from '../lib/errors.js';

/** What yargs knows of a command's options once its builder has run (yargs' getOptions()). */
export interface OptionTable {
  boolean: string[];
  alias: Record<string, string[]>;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The boolean flags of argv that carry a value yargs would quietly read as false: yargs-parser turns
 * `--dry-run=yes`, `=maybe`, `=1` into false, so `delete-cluster demo --dry-run=yes --yes` deleted for
 * real. A boolean flag takes the bare form, `--no-flag`, or exactly `=true` / `=false`; anything else,
 * and one flag given twice with opposite values (`--dry-run --no-dry-run`), is a usage error (exit 2)
 * raised before any handler runs. Words after `--` are not flags.
 */
export function checkBooleanFlags(argv: readonly string[], opts: OptionTable): void {
  const names = new Map<string, string>();
  for (const b of opts.boolean) {
    names.set(kebab(b), b);
    for (const a of opts.alias[b] ?? []) names.set(kebab(a), b);
  }
  const problems: string[] = [];
  const seen = new Map<string, { value: boolean; as: string }>();
  for (const word of argv) {
    if (word === '--') break;
    const m = /^(--?)([^=]+?)(?:=(.*))?$/s.exec(word);
    if (!m) continue;
    const [, dashes, rawName, value] = m;
    if (dashes === '-' && rawName.length > 1 && value === undefined) continue; // -abc: short-flag bundles carry no values
    let name = kebab(rawName);
    let negated = false;
    if (!names.has(name) && name.startsWith('no-') && names.has(name.slice(3))) {
      name = name.slice(3);
      negated = true;
    }
    const key = names.get(name);
    if (key === undefined) continue;
    const flag = `${dashes}${rawName}`;
    if (value !== undefined && value !== 'true' && value !== 'false') {
      problems.push(`${flag}=${JSON.stringify(value).slice(1, -1)}: a yes/no flag takes no value, or exactly =true or =false`);
      continue;
    }
    const v = (value === undefined || value === 'true') !== negated;
    const before = seen.get(key);
    if (before && before.value !== v) problems.push(`${before.as} and ${word} contradict each other`);
    else seen.set(key, { value: v, as: word });
  }
  if (problems.length) {
    throw new UsageError(problems.length === 1 ? problems[0] : 'yes/no flags with values kaas cannot read', {
      problems: problems.length === 1 ? [] : problems,
      hint: 'write the flag alone to switch it on (e.g. --dry-run), --no-<flag> or =false to switch it off; nothing was done',
    });
  }
}
