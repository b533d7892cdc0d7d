/**
 * The floor of `kaas detect` that the three libraries it starts with set at their fastest: yargs, yaml
 * and axios loaded as kaas loads them — the bundle's own vendor files (dist/bundle/vendor/<name>.cjs)
 * with the V8 code caches its build made, through lib/code-files.ts — then yargs parses the command line
 * (`detect --cloud NAME -o json`, one command, strict) and detect-floor-requests.ts reads clouds.yaml and
 * sends the four requests. Nothing of kaas's own work (settings, planning, checks, output) is in it, so
 * kaas cannot come closer to the bare floor (detect-floor.ts) than this script does with these libraries.
 * Reads FLOOR_VENDOR (the bundle's vendor folder) and FLOOR_CLOUDS (a clouds.yaml); argv as kaas's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AxiosStatic } from 'axios';
import type { Argv } from 'yargs';
import { codeCacheSuffix, compileCodeFile, runCodeFile } from '../../lib/code-files.js';
import { detectRequests } from './detect-floor-requests.js';

const vendor = process.env.FLOOR_VENDOR ?? '';

/** A vendor file with its cache, as lib/code-files.ts loadVendorFile; a refused cache is an error here (the floor would not be one). */
function load(name: string): Record<string, unknown> {
  const file = path.join(vendor, `${name}.cjs`);
  const script = compileCodeFile(readFileSync(file, 'utf8'), `kaas:vendor/${name}.cjs`, readFileSync(`${file}${codeCacheSuffix()}`));
  if (script.cachedDataRejected) throw new Error(`V8 refused the code cache of ${file}`);
  // import.meta.url of a chunk beside kaas's (yargs looks for package.json from there, as in kaas).
  return runCodeFile(script, pathToFileURL(path.join(vendor, '..', 'chunks', 'floor.js')).href);
}

const yargs = load('yargs').default as (argv: string[]) => Argv;
const { parse } = load('yaml') as { parse: (text: string) => unknown };
const axios = load('axios').default as AxiosStatic;
let cloud = '';
yargs(process.argv.slice(2))
  .command('detect', 'detect the cloud', (y) => y.option('cloud', { type: 'string', demandOption: true }).option('output', { alias: 'o', choices: ['text', 'json'] }), (argv) => { cloud = argv.cloud; })
  .strict().demandCommand(1).parseSync();
await detectRequests(axios, parse, process.env.FLOOR_CLOUDS ?? '', cloud);
