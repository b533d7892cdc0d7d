// The build-time half of the bundled CLI: the modules the *.bundle.ts twins import (`kaas-gen:<name>`),
// generated from the tsc-built lib/ (dist/lib), so that they are computed by the very code the
// run-time twins use: templates precompiled with the same Handlebars and options, manifests parsed
// and checked by the same parser, validators compiled by the same ajv with the same options.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import Handlebars from 'handlebars';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = path.join(ROOT, 'templates');
const dist = async (rel) => import(pathToFileURL(path.join(ROOT, 'dist', rel)).href);

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.split(path.sep).join('/')).sort();
}

/** Every templates/**.hbs precompiled, and every templates/**.yaml parsed to JSON. */
async function bundled() {
  const { templateVariables } = await dist('lib/render/engine.js');
  const { COMPILE_OPTIONS } = await dist('lib/render/template.js');
  const { parseDocuments } = await dist('lib/render/documents.js');
  const templates = [];
  const manifests = [];
  for (const rel of filesUnder(TEMPLATES)) {
    const source = () => readFileSync(path.join(TEMPLATES, rel), 'utf8');
    if (rel.endsWith('.hbs')) {
      const spec = Handlebars.precompile(source(), COMPILE_OPTIONS);
      templates.push(`${JSON.stringify(rel)}: { variables: ${JSON.stringify(templateVariables(source()))}, spec: ${spec} }`);
    } else if (rel.endsWith('.yaml')) {
      const objects = parseDocuments(source(), `templates/${rel}`);
      const json = JSON.stringify(objects);
      // JSON holds exactly what YAML gave (no dates, no undefined, no non-finite numbers).
      if (!isDeepStrictEqual(JSON.parse(json), objects)) throw new Error(`templates/${rel}: its objects do not survive JSON`);
      manifests.push(`${JSON.stringify(rel)}: ${JSON.stringify(json)}`);
    }
  }
  return `export const TEMPLATES = {\n${templates.join(',\n')}\n};\nexport const MANIFESTS = {\n${manifests.join(',\n')}\n};\n`;
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
  const formatsModule = path.join(ROOT, 'lib', 'settings', 'formats.ts');
  const ajv = new Ajv({ ...SETTINGS_AJV_OPTIONS, code: { source: true, esm: true, formats: _`require(${formatsModule}).SETTINGS_FORMATS` } });
  for (const [name, fn] of Object.entries(SETTINGS_FORMATS)) ajv.addFormat(name, fn);
  const schemas = Object.fromEntries(SETTINGS.map((d) => [validatorKey(d.type), valueSchema(d.type)]));
  return standaloneValidators(ajv, schemas);
}

/** The validator of every CRD schema under templates/crds/. */
async function crdValidators() {
  const { CRD_AJV_OPTIONS, closeObjects, crdKey, prepareCrdAjv } = await dist('lib/cluster/crd-schemas.js');
  const ajv = prepareCrdAjv(new Ajv({ ...CRD_AJV_OPTIONS, code: { source: true, esm: true } }));
  const schemas = {};
  for (const f of filesUnder(path.join(TEMPLATES, 'crds'))) {
    const key = crdKey(f);
    if (!key) continue;
    const { schema } = JSON.parse(readFileSync(path.join(TEMPLATES, 'crds', f), 'utf8'));
    schemas[key] = closeObjects(schema);
  }
  return standaloneValidators(ajv, schemas);
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
export const GENERATED = {
  bundled,
  'settings-validators': settingsValidators,
  'crd-validators': crdValidators,
  'k8s-models': k8sModels,
};
