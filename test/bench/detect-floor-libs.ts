/**
 * The floor of `kaas detect` with the libraries the brief prescribes for it: the same four requests as
 * detect-floor.ts, but the cloud is read from clouds.yaml with `yaml` and the requests go through an
 * `axios` instance set up as kaas's (detect-floor-requests.ts). detect.bench.ts bundles it with the
 * trims of kaas's own bundle (build/bundle.mjs), so the difference to detect-floor.ts is what loading
 * (and compiling, as ES modules) and using these two libraries costs, and the difference to kaas is
 * kaas's own work. Reads FLOOR_CLOUDS (a clouds.yaml) and FLOOR_CLOUD (a cloud in it with password auth
 * and Default domains).
 */
import axios from 'axios';
import { parse } from 'yaml';
import { detectRequests } from './detect-floor-requests.js';

await detectRequests(axios, parse, process.env.FLOOR_CLOUDS ?? '', process.env.FLOOR_CLOUD ?? '');
