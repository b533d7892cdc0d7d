import { isIp, parseCidr } from '../net/cidr.js';

/**
 * The string formats kaas's settings schema uses (`format: kaas-cidr` …), as ajv format functions.
 * One module for the run-time validators (validators.ts) and the precompiled ones (the build points
 * ajv's standalone code here), so both accept exactly the same values.
 */
export const SETTINGS_FORMATS: Record<string, (s: string) => boolean> = {
  'kaas-cidr': (s) => !('error' in parseCidr(s)),
  'kaas-cidr-or-ip': (s) => !('error' in parseCidr(s, true)),
  'kaas-ip': (s) => isIp(s),
};

/** ajv's options for the settings validators (the build compiles with the same ones). */
export const SETTINGS_AJV_OPTIONS = { allErrors: true, strict: false } as const;
