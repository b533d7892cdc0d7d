/**
 * Reads kaas's yargs command definitions without running yargs: each builder is handed a recorder
 * that answers every chained call with itself and keeps what the reference pages need (positionals,
 * options, examples, subcommands, conflicts). Pure: nothing is parsed and no handler runs.
 */

/** One flag or positional as declared (`.option(name, spec)`, `.positional(name, spec)`). */
export interface OptionDoc {
  name: string;
  aliases: string[];
  type?: string;
  describe?: string;
  default?: unknown;
  choices?: readonly unknown[];
  array: boolean;
  required: boolean;
  hidden: boolean;
}

/** One command as declared: `path` is its words after `kaas` (e.g. ['settings', 'init']). */
export interface CommandDoc {
  path: string[];
  /** The argument part of the command string, e.g. `<cluster>` or `[<cluster>]`. */
  args: string;
  aliases: string[];
  describe: string;
  positionals: OptionDoc[];
  options: OptionDoc[];
  examples: { command: string; describe: string }[];
  conflicts: [string, string][];
  subcommands: CommandDoc[];
}

/** The part of a yargs command module the pages read. */
export interface CommandModuleLike {
  command?: string | readonly string[];
  aliases?: string | readonly string[];
  describe?: string | false;
  builder?: unknown;
}

type Spec = Record<string, unknown>;

const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

function optionDoc(name: string, spec: Spec = {}): OptionDoc {
  return {
    name,
    aliases: list(spec.alias),
    type: typeof spec.type === 'string' ? spec.type : undefined,
    describe: typeof spec.describe === 'string' ? spec.describe : typeof spec.description === 'string' ? spec.description : undefined,
    default: spec.default,
    choices: Array.isArray(spec.choices) ? spec.choices : undefined,
    array: spec.array === true,
    required: spec.demandOption === true || spec.demandOption === 'string',
    hidden: spec.hidden === true,
  };
}

interface Recorded {
  positionals: OptionDoc[];
  options: OptionDoc[];
  examples: { command: string; describe: string }[];
  conflicts: [string, string][];
  modules: CommandModuleLike[];
}

/** A stand-in for yargs' builder argument: records declarations, returns itself for every other call. */
function recorder(): { y: unknown; rec: Recorded } {
  const rec: Recorded = { positionals: [], options: [], examples: [], conflicts: [], modules: [] };
  const known: Record<string, (...a: unknown[]) => void> = {
    option: (name, spec) => rec.options.push(optionDoc(String(name), spec as Spec)),
    options: (specs) => Object.entries((specs ?? {}) as Record<string, Spec>).forEach(([n, s]) => rec.options.push(optionDoc(n, s))),
    positional: (name, spec) => rec.positionals.push(optionDoc(String(name), spec as Spec)),
    example: (command, describe) => rec.examples.push({ command: String(command), describe: describe === undefined ? '' : String(describe) }),
    conflicts: (a, b) => {
      if (typeof a === 'string') for (const other of list(b)) rec.conflicts.push([a, other]);
    },
    command: (m) => {
      if (m && typeof m === 'object') rec.modules.push(m as CommandModuleLike);
    },
  };
  const y: unknown = new Proxy({}, {
    get: (_t, prop) => (...args: unknown[]) => {
      if (Object.hasOwn(known, prop)) known[String(prop)](...args);
      return y;
    },
  });
  return { y, rec };
}

/** Runs a builder (function or options object) against a recorder. */
function record(builder: unknown): Recorded {
  const { y, rec } = recorder();
  if (typeof builder === 'function') builder(y);
  else if (builder && typeof builder === 'object') (y as { options(s: unknown): unknown }).options(builder);
  return rec;
}

/** The options a function declares on its yargs argument (e.g. kaas's global flags). */
export function recordOptions(declare: (y: never) => unknown): OptionDoc[] {
  return record(declare).options;
}

/** The command tree of one yargs command module, its subcommands included. */
export function commandTree(m: CommandModuleLike, parent: string[] = []): CommandDoc {
  const spec = list(m.command)[0] ?? '';
  const [name, ...args] = spec.trim().split(/\s+/);
  const rec = record(m.builder);
  const path = [...parent, name];
  return {
    path,
    args: args.join(' '),
    aliases: [...list(m.aliases), ...list(m.command).slice(1).map((c) => c.split(/\s+/)[0])],
    describe: typeof m.describe === 'string' ? m.describe : '',
    positionals: rec.positionals,
    options: rec.options,
    examples: rec.examples,
    conflicts: rec.conflicts,
    subcommands: rec.modules.map((s) => commandTree(s, path)),
  };
}
