// The build-time half of the bundled CLI: the modules the *.bundle.ts twins import (`kaas-gen:<name>`),
// generated from the tsc-built lib/ (dist/lib), so that they are computed by the very code the
// run-time twins use: templates precompiled with the same Handlebars and options, manifests parsed
// and checked by the same parser, validators compiled by the same ajv with the same options.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import Handlebars from 'handlebars';

const addFormats = addFormatsModule.default ?? addFormatsModule;

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = path.join(ROOT, 'templates');
const dist = async (rel) => import(pathToFileURL(path.join(ROOT, 'dist', rel)).href);

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.split(path.sep).join('/')).sort();
}

/** Every templates/**.hbs precompiled; every other file listed (the data files, see dataFiles). */
async function bundled() {
  const { templateVariables } = await dist('lib/render/engine.js');
  const { COMPILE_OPTIONS } = await dist('lib/render/template.js');
  const templates = [];
  const data = [];
  for (const rel of filesUnder(TEMPLATES)) {
    if (rel.endsWith('.hbs')) {
      const source = readFileSync(path.join(TEMPLATES, rel), 'utf8');
      const spec = Handlebars.precompile(source, COMPILE_OPTIONS);
      templates.push(`${JSON.stringify(rel)}: { variables: ${JSON.stringify(templateVariables(source))}, spec: ${spec} }`);
    } else {
      data.push(rel);
    }
  }
  return `export const TEMPLATES = {\n${templates.join(',\n')}\n};\nexport const DATA = ${JSON.stringify(data)};\n`;
}

/**
 * The data files of the bundle, written to `out` (dist/bundle/data): every file under templates/ but
 * the Handlebars templates, verbatim, and beside each .yaml manifest its documents, parsed and checked
 * by the run-time parser, as JSON (<rel>.objects.json), and as the run-time stringifyDocuments writes
 * them (<rel>.documents.json).
 */
export async function dataFiles(out) {
  const { parseDocuments, stringifyDocument } = await dist('lib/render/documents.js');
  for (const rel of filesUnder(TEMPLATES)) {
    if (rel.endsWith('.hbs') || statSync(path.join(TEMPLATES, rel)).isDirectory()) continue;
    const target = path.join(out, rel);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(TEMPLATES, rel), target);
    if (!rel.endsWith('.yaml')) continue;
    const objects = parseDocuments(readFileSync(path.join(TEMPLATES, rel), 'utf8'), `templates/${rel}`);
    const json = JSON.stringify(objects);
    // JSON holds exactly what YAML gave (no dates, no undefined, no non-finite numbers).
    if (!isDeepStrictEqual(JSON.parse(json), objects)) throw new Error(`templates/${rel}: its objects do not survive JSON`);
    writeFileSync(`${target}.objects.json`, json);
    writeFileSync(`${target}.documents.json`, JSON.stringify(objects.map((o) => stringifyDocument(o))));
  }
}

/** ajv standalone code exporting `VALIDATORS`: key → validator of its schema (compiled by `ajv`). */
function standaloneValidators(ajv, schemas) {
  const keys = Object.keys(schemas);
  keys.forEach((k, i) => ajv.addSchema(schemas[k], `v${i}`));
  const code = standaloneCode.default(ajv, Object.fromEntries(keys.map((k, i) => [`v${i}`, `v${i}`])));
  return `${code}\nexport const VALIDATORS = {\n${keys.map((k, i) => `  ${JSON.stringify(k)}: v${i}`).join(',\n')}\n};\n`;
}

/** The validator of every setting type in the settings table. */
async function settingsValidators() {
  const { SETTINGS } = await dist('lib/settings/table.js');
  const { valueSchema } = await dist('lib/settings/schema.js');
  const { validatorKey } = await dist('lib/settings/validators.js');
  const { SETTINGS_AJV_OPTIONS, SETTINGS_FORMATS } = await dist('lib/settings/formats.js');
  const ajv = new Ajv({ ...SETTINGS_AJV_OPTIONS, code: { source: true, esm: true } });
  addFormats(ajv, SETTINGS_FORMATS);
  const schemas = Object.fromEntries(SETTINGS.map((d) => [validatorKey(d.type), valueSchema(d.type)]));
  return standaloneValidators(ajv, schemas);
}

/** The validator of every OpenStack answer entry kaas reads (lib/openstack/answer-schemas.ts). */
async function answerValidators() {
  const { ANSWER_AJV_OPTIONS, ANSWER_SCHEMAS, LINKS_SCHEMA } = await dist('lib/openstack/answer-schemas.js');
  const ajv = new Ajv({ ...ANSWER_AJV_OPTIONS, code: { source: true, esm: true } });
  return standaloneValidators(ajv, { ...ANSWER_SCHEMAS, links: LINKS_SCHEMA });
}

/**
 * The validator files (dist/bundle/validators/<file>, see lib/code-files.ts): a
 * self-contained CommonJS module per CRD kind, some megabytes, loaded when that kind is checked. The
 * kinds of every bundled Gateway API / Envoy Gateway release (`gateway`: "<release>/<key>", with the
 * schema the run-time lookup finds for that kind, crdSchemaFor) and of the Cluster API / CAPO CRD
 * schemas under templates/crds/ (`crds`: "<group>/<version>/<Kind>"). Returns each as
 * id → { file, code }.
 */
let validatorSources;
export function validatorFileSources() {
  validatorSources ??= compileValidatorFiles();
  return validatorSources;
}

async function compileValidatorFiles() {
  const { BUNDLED_GATEWAY_VERSIONS } = await dist('lib/plan/gateway-versions.js');
  const { bundledCrdObjects, crdSchemaFor } = await dist('lib/gateway/schema.js');
  const { CRD_AJV_OPTIONS, closeObjects, crdSchemas } = await dist('lib/render/crd-schema.js');
  const { prepareCrdAjv } = await dist('lib/render/crd-compile.js');
  const { crdFileSchemas } = await dist('lib/cluster/crd-validators.js');
  const source = (schema) => {
    const ajv = prepareCrdAjv(new Ajv({ ...CRD_AJV_OPTIONS, code: { source: true } }));
    ajv.addSchema(closeObjects(schema), 'v');
    return `${standaloneCode.default(ajv, { default: 'v' })}`;
  };
  const gateway = {};
  for (const v of BUNDLED_GATEWAY_VERSIONS) {
    const keys = bundledCrdObjects(v).filter((o) => o.kind === 'CustomResourceDefinition').flatMap((crd) => crdSchemas(crd).map(([k]) => k));
    for (const key of [...new Set(keys)].sort()) {
      const schema = crdSchemaFor(v, key);
      if (schema) gateway[`${v.version}/${key}`] = { file: `${v.version}-${key.replaceAll('/', '_')}.cjs`, code: source(schema) };
    }
  }
  const crds = Object.fromEntries(crdFileSchemas().map(([key, schema]) => [key, { file: `crd-${key.replaceAll('/', '_')}.cjs`, code: source(schema) }]));
  return { gateway, crds };
}

/** An index of validator files (id → file under dist/bundle/validators/), as the module exporting `name`. */
const fileIndex = (name, sources) => `export const ${name} = ${JSON.stringify(Object.fromEntries(Object.entries(sources).map(([id, s]) => [id, s.file])))};\n`;

/** The index of the Cluster API / CAPO CRD validators. */
async function crdValidators() {
  return fileIndex('CRD_VALIDATORS', (await validatorFileSources()).crds);
}

/** The index of the gateway validators. */
async function gatewayValidators() {
  return fileIndex('GATEWAY_VALIDATORS', (await validatorFileSources()).gateway);
}

/** One lazily imported chunk per kubernetes-models kind (a class) in the groups kaas validates. */
async function k8sModels() {
  const { MODEL_GROUPS } = await dist('lib/render/k8s-models.js');
  const lines = [];
  for (const group of MODEL_GROUPS) {
    const dir = path.join(ROOT, 'node_modules', 'kubernetes-models', group);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.mjs') && n !== 'index.mjs').sort()) {
      const kind = f.slice(0, -4);
      if (!/\bclass \w+ extends\b/.test(readFileSync(path.join(dir, f), 'utf8'))) continue;
      lines.push(`  ${JSON.stringify(`${group}/${kind}`)}: () => import(${JSON.stringify(`kubernetes-models/${group}/${kind}`)})`);
    }
  }
  return `export const MODELS = {\n${lines.join(',\n')}\n};\n`;
}

/** name → generator of the module `kaas-gen:<name>`. */
/**
 * What this build is (lib/version/build-info.bundle.ts): package.json's version and the checkout's
 * commit, `dirty` when tracked files differ from it; no commit outside a git checkout.
 */
async function buildInfo() {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--verify', 'HEAD');
  const info = { version };
  if (head.status === 0) {
    info.commit = head.stdout.trim();
    info.dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  }
  return `export const BUILD = ${JSON.stringify(info)};\n`;
}

export const GENERATED = {
  bundled,
  'build-info': buildInfo,
  'settings-validators': settingsValidators,
  'crd-validators': crdValidators,
  'answer-validators': answerValidators,
  'k8s-models': k8sModels,
  'gateway-validators': gatewayValidators,
};
