import { LEGACY, SETTINGS, type SettingDecl, type SettingType } from './table.js';
import { CLUSTER_NAME_MAX, CLUSTER_NAME_PATTERN } from './cluster-name.js';

type JsonSchema = Record<string, unknown>;

const VERSION = '^v\\d+\\.\\d+\\.\\d+$';
const VERSION_X = '^v\\d+\\.\\d+\\.(\\d+|x)$';
// CIDR syntax as patterns (JSON Schema has no CIDR format); kaas itself also checks host bits.
const V4 = '(\\d{1,3}\\.){3}\\d{1,3}';
const V6 = '[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*';
const CIDR = `^(${V4}/(3[0-2]|[12]?\\d)|${V6}/(12[0-8]|1[01]\\d|[1-9]?\\d))$`;
const CIDR_OR_IP = `^(${V4}(/(3[0-2]|[12]?\\d))?|${V6}(/(12[0-8]|1[01]\\d|[1-9]?\\d))?)$`;
const IP = { anyOf: [{ type: 'string', format: 'ipv4' }, { type: 'string', format: 'ipv6' }] };

/** JSON Schema of one setting's value, as written in a settings file. */
export function valueSchema(type: SettingType): JsonSchema {
  switch (type.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string' };
    case 'integer':
      return { type: 'integer', ...(type.min !== undefined && { minimum: type.min }), ...(type.max !== undefined && { maximum: type.max }) };
    case 'enum':
      return { enum: type.values };
    case 'boolOrVersion':
      return { anyOf: [{ type: 'boolean' }, { type: 'string', pattern: VERSION }] };
    case 'version':
      return { type: 'string', pattern: type.allowPatchX ? VERSION_X : VERSION };
    case 'cidr':
      return { type: 'string', pattern: CIDR };
    case 'cidrList': {
      const item = { type: 'string', pattern: type.bareIpAsHost ? CIDR_OR_IP : CIDR };
      const list = { type: 'array', items: item, uniqueItems: true };
      if (!type.allowNone) return list;
      return { anyOf: [list, { type: 'array', items: { const: 'none' }, minItems: 1, maxItems: 1 }] };
    }
    case 'ipList':
      return { type: 'array', items: IP };
    case 'map':
      return {
        type: 'object',
        additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
        propertyNames: { pattern: type.keys === 'metadata' ? '^[A-Za-z0-9_.:-]+$' : '^[a-z0-9][a-z0-9-]*$' },
      };
    case 'registryMirrors':
      return { type: 'array', items: REGISTRY_MIRROR };
    case 'chartRepo':
      return { type: 'string', pattern: CHART_REPO };
  }
}

// An http(s) URL with a host; a registry mirror endpoint and a Helm chart repository are written so.
const HTTP_URL = 'https?://[^/?#\\s]+[^?#\\s]*';
// A Helm chart repository (index.yaml) over http(s), or an OCI chart reference.
const CHART_REPO = `^(${HTTP_URL}|oci://[^/?#\\s]+/[^?#\\s]+)$`;

// One registry_mirrors entry (kaas checks the rest, with reasons: ./registry-mirrors.ts).
const URL_PATTERN = `^${HTTP_URL}$`;
const REGISTRY_MIRROR = {
  type: 'object',
  additionalProperties: false,
  required: ['registry'],
  properties: {
    registry: { type: 'string', description: 'Registry host as in image names (docker.io, harbor.example:5000), or _default for every registry.' },
    endpoints: { type: 'array', items: { type: 'string', pattern: URL_PATTERN }, uniqueItems: true, description: 'Mirrors, tried in order before server.' },
    server: { type: 'string', pattern: URL_PATTERN, description: 'The registry endpoint tried last; unset = the registry host itself.' },
    capabilities: { type: 'array', items: { enum: ['pull', 'resolve', 'push'] }, minItems: 1, uniqueItems: true, description: 'What the endpoints may do; default pull and resolve.' },
    override_path: { type: 'boolean', description: 'The endpoint URLs carry the API root (no /v2 appended).' },
    skip_verify: { type: 'boolean', description: 'Do not verify the endpoints\' certificates (testing only).' },
    ca_file: { type: 'string', minLength: 1, description: 'PEM file of the CA that signed the endpoints\' certificates, relative to the environment file.' },
    ca: { type: 'string', description: 'The CA as PEM text.' },
  },
};

/** The wording used in error messages: `<path>: <value> is not <expectation>`. */
export function expectation(type: SettingType): string {
  switch (type.kind) {
    case 'boolean':
      return 'a boolean (true or false)';
    case 'string':
      return 'a string';
    case 'integer':
      return `an integer${type.min !== undefined ? ` from ${type.min}` : ''}${type.max !== undefined ? ` to ${type.max}` : ''}`;
    case 'enum':
      return `one of ${type.values.join(', ')}`;
    case 'boolOrVersion':
      return 'true, false or a version like "v1.2.3"';
    case 'version':
      return type.allowPatchX ? 'a version like "v1.34.2" or "v1.34.x"' : 'a version like "v3.27.3"';
    case 'cidr':
      return 'a CIDR like "10.8.0.0/20"';
    case 'cidrList':
      return `a list of CIDRs${type.bareIpAsHost ? ' or IP addresses' : ''}${type.allowNone ? ', or ["none"]' : ''}`;
    case 'ipList':
      return 'a list of IP addresses';
    case 'map':
      return type.keys === 'metadata'
        ? 'a map of metadata keys (letters, digits, _ . : -) to strings, numbers or booleans'
        : 'a map of lower-case option names to strings, numbers or booleans';
    case 'registryMirrors':
      return 'a list of registry mirror entries like {registry: docker.io, endpoints: ["https://mirror.example:5000"]}';
    case 'chartRepo':
      return 'a Helm chart repository URL (https:// or http://) or an OCI chart reference (oci://registry/path/chart)';
  }
}

/** Lists may also be written in SCS's one-string form "[ a, b, ]"; kaas converts it before checking. */
function fileValueSchema(type: SettingType): JsonSchema {
  const base = valueSchema(type);
  if (type.kind !== 'cidrList' && type.kind !== 'ipList') return base;
  return { anyOf: [base, { type: 'string', pattern: '^\\s*\\[.*\\]\\s*$' }] };
}

function settingProperty(d: SettingDecl): JsonSchema {
  return {
    ...fileValueSchema(d.type),
    description: d.description,
    ...(d.default !== undefined && { default: d.default }),
  };
}

/** The properties every level (environment and cluster section) offers: the current keys. */
function levelProperties(): Record<string, JsonSchema> {
  return Object.fromEntries(SETTINGS.map((d) => [d.key, settingProperty(d)]));
}

/**
 * Legacy SCS names are accepted, but as patternProperties: editors (yaml-language-server) offer
 * `properties` for completion and never these, so nobody is led to write a legacy name.
 */
function legacyPatterns(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [legacy, key] of LEGACY) {
    const d = SETTINGS.find((s) => s.key === key)!;
    out[`^${legacy}$`] = { ...fileValueSchema(d.type), deprecated: true, description: `Legacy SCS name of ${key}.` };
  }
  return out;
}

/**
 * The JSON Schema of a settings file (draft-07), for editors (yaml-language-server) and for
 * kaas's own validation: the same schema users see is the one their files are checked against.
 */
export function settingsFileSchema(): JsonSchema {
  const props = levelProperties();
  const legacy = legacyPatterns();
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://kaas.invalid/schema/settings.json',
    title: 'kaas environment settings',
    type: 'object',
    additionalProperties: false,
    patternProperties: legacy,
    properties: {
      ...props,
      clusters: {
        description: 'Per-cluster overrides: clusters.<name>.<setting>.',
        type: 'object',
        propertyNames: { pattern: CLUSTER_NAME_PATTERN, maxLength: CLUSTER_NAME_MAX },
        additionalProperties: { $ref: '#/definitions/cluster' },
      },
    },
    definitions: {
      cluster: { type: 'object', additionalProperties: false, properties: props, patternProperties: legacy },
    },
  };
}
