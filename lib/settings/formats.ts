/**
 * How kaas's settings schema is checked by ajv: only standard formats (ipv4, ipv6, from ajv-formats),
 * so that ajv-cli and yaml-language-server read the same schema; what a pattern cannot say (host bits
 * of a CIDR) is checked by parseCidr in check.ts. One module for the run-time validators
 * (validators.ts) and the precompiled ones (build/generate.mjs), so both accept exactly the same values.
 */

/** ajv's options for the settings validators (the build compiles with the same ones). */
export const SETTINGS_AJV_OPTIONS = { allErrors: true, strict: false } as const;

/** The ajv-formats formats the settings schema uses. */
export const SETTINGS_FORMATS = ['ipv4', 'ipv6'];
