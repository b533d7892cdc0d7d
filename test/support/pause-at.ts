/**
 * Preloaded into a real kaas process (`node --import …/pause-at.js kaas.js …`) to stop it at an
 * exact moment for a kill -9: KAAS_TEST_PAUSE="<fs function>:<n>[:<path part>]" makes the n-th
 * call of that node:fs function (among those with a string argument containing the path part)
 * print "PAUSED <function> <paths>" on stderr and block for ever, before it does anything. kaas
 * calls node:fs through its default export, so replacing the property here reaches the bundle too.
 * KAAS_TEST_PAUSE_MS=<ms> blocks that long instead and then goes on (a signal sent meanwhile arrives
 * in the middle of the synchronous work, as during a long parse).
 */
import fs from 'node:fs';

const spec = process.env.KAAS_TEST_PAUSE;
if (spec) {
  const [name, nth, part] = spec.split(':');
  const table = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = table[name];
  let seen = 0;
  table[name] = function paused(this: unknown, ...args: unknown[]) {
    const paths = args.filter((a): a is string => typeof a === 'string');
    if ((!part || paths.some((p) => p.includes(part))) && ++seen === Number(nth)) {
      fs.writeSync(2, `\nPAUSED ${name} ${paths.join(' ')}\n`);
      const ms = Number(process.env.KAAS_TEST_PAUSE_MS);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms > 0 ? ms : undefined);
    }
    return original.apply(this, args);
  };
}
