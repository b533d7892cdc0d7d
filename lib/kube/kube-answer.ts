import { kindOf, OperationError } from '../errors.js';

/**
 * The boundary where `kubectl get -o json` output becomes kaas's data: JSON, an object, and — for a
 * list — `items` a list of objects, each with `metadata.name` a string and `spec` / `status` objects
 * when present. A kubectl (or a plugin, a wrapper script, an API server behind a proxy) printing
 * something else is an OperationError naming the command and what was wrong, instead of "Unexpected
 * token" or "Cannot read properties of null" from deep inside doctor.
 */

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why `o` is not a Kubernetes object kaas can read (`where` names it in the message), or undefined. */
export function objectProblem(o: unknown, where: string): string | undefined {
  if (!isObject(o)) return `${where} is ${kindOf(o)}, not an object`;
  if (!isObject(o.metadata)) return `${where} has metadata that is ${kindOf(o.metadata)}, not an object`;
  if (typeof o.metadata.name !== 'string') return `${where} has metadata.name that is ${kindOf(o.metadata.name)}, not a string`;
  for (const f of ['spec', 'status'] as const) {
    if (o[f] !== undefined && !isObject(o[f])) return `${where} (${o.metadata.name}) has ${f} that is ${kindOf(o[f])}, not an object`;
  }
  return undefined;
}

/** Why the parsed output of `kubectl get <kind> [name] -o json` cannot be read, or undefined. */
export function kubeAnswerProblem(value: unknown, named: boolean): string | undefined {
  if (named) return objectProblem(value, 'the object');
  if (!isObject(value)) return `the answer is ${kindOf(value)}, not a List`;
  if (!Array.isArray(value.items)) return `"items" is ${kindOf(value.items)}, not a list`;
  for (const [i, item] of value.items.entries()) {
    const p = objectProblem(item, `item ${i}`);
    if (p) return p;
  }
  return undefined;
}

/** Parses and checks kubectl's JSON output; `command` is the kubectl command line for the message. */
export function readKubeJson<T>(stdout: string, command: string, named: boolean): T {
  const fail = (what: string) =>
    new OperationError(`${command} printed output kaas cannot read: ${what}`, {
      hint: 'run the command yourself: is "kubectl" the real kubectl (not a wrapper or plugin printing something else), and does the API server answer through no proxy?',
    });
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    throw fail(stdout.trim() === '' ? 'nothing at all' : `not JSON (${stdout.length} chars: ${JSON.stringify(stdout.slice(0, 60))})`);
  }
  const problem = kubeAnswerProblem(value, named);
  if (problem) throw fail(problem);
  return value as T;
}
