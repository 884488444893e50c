// Writes docs/openapi.yaml, the OpenAPI document of every service, from what sits beside the
// code: docs/openapi.base.yaml (info, servers, tags, shared components), one `<name>.docs.yaml`
// per router (the router's paths: prose, parameters, examples, statuses) and the joi schemas the
// routes declare with guard() (libs/http): request parts (the validators themselves) and
// response bodies, converted to JSON Schema 2020-12 (OpenAPI 3.1) by joi-to-json. A shape a
// route declares replaces the one of its docs file, so each wire shape is written once, at the
// route. Reads the compiled routes: run as `npm run gen:openapi` (which compiles first).
// `--check` writes nothing and fails when docs/openapi.yaml is not what it would write.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { parseDocument, isMap, isSeq, isCollection, visit } = require('yaml');
const OpenApi31Parser = require('joi-to-json/lib/parsers/open-api-3.1');

/**
 * joi-to-json's OpenAPI 3.1 parser, plus what it leaves out: an object's `.min()`/`.max()`/
 * `.length()` (its number of keys) as minProperties/maxProperties, and null as an alternative
 * of alternatives that allow it.
 */
class Parser extends OpenApi31Parser {
  // Alternatives that also allow null: `null` is one more alternative. (joi-to-json sets
  // `type: 'null'` beside the `anyOf`, which would allow nothing but null.)
  _addNullTypeIfNullable(schema, joiSpec) {
    const nullable = (joiSpec.allow ?? []).includes(null);
    const list = schema.anyOf ? 'anyOf' : schema.oneOf ? 'oneOf' : null;
    if (nullable && list && !schema.type) {
      if (!schema[list].some((alternative) => alternative.type === 'null'))
        schema[list].push({ type: 'null' });
      return;
    }
    super._addNullTypeIfNullable(schema, joiSpec);
  }

  _setObjectProperties(schema, joiSpec, definitions, level) {
    super._setObjectProperties(schema, joiSpec, definitions, level);
    if (schema.type !== 'object') return;
    // `.pattern(<key schema>, <value schema>)`: keys the key schema allows, each with the value
    // schema (joi-to-json only converts a pattern given as a regex).
    for (const pattern of joiSpec.patterns ?? []) {
      if (!pattern.schema || !pattern.rule) continue;
      schema.propertyNames = this.parse(pattern.schema, definitions, level + 1);
      schema.additionalProperties = this.parse(pattern.rule, definitions, level + 1);
    }
    for (const rule of joiSpec.rules ?? []) {
      const limit = rule.args?.limit;
      if (rule.name === 'min' || rule.name === 'length') schema.minProperties = limit;
      if (rule.name === 'max' || rule.name === 'length') schema.maxProperties = limit;
    }
  }
}

function joiToJson(schema) {
  return new Parser().parse(schema.describe(), {});
}

const OUTPUT = 'docs/openapi.yaml';
const BASE = 'docs/openapi.base.yaml';
/**
 * The docs files, in the order of their paths in the document. Each `<dir>/<name>.docs.yaml`
 * beside a `<name>.routes.ts` takes the schemas of the guards that module exports.
 */
const DOCS_FILES = [
  'services/catalogue-api/src/routes/whoami.docs.yaml',
  'services/catalogue-api/src/routes/catalogue.docs.yaml',
  'services/catalogue-api/src/routes/credit-alert.docs.yaml',
  'services/catalogue-api/src/routes/webhooks.docs.yaml',
  'services/catalogue-api/src/routes/listing.docs.yaml',
  'services/catalogue-api/src/routes/generation-batches.docs.yaml',
  'services/white-label-api/src/routes/licence.docs.yaml',
  'services/white-label-api/src/routes/generate.docs.yaml',
  'services/white-label-api/src/routes/entities.docs.yaml',
  'services/white-label-api/src/routes/fill-design.docs.yaml',
  'services/white-label-api/src/routes/content.docs.yaml',
  'services/white-label-api/src/routes/drafts.docs.yaml',
  'services/white-label-api/src/routes/designs.docs.yaml',
  'services/white-label-api/src/routes/credit.docs.yaml',
  'services/white-label-api/src/routes/prompts.docs.yaml',
  'services/white-label-api/src/routes/widgets.docs.yaml',
  'services/white-label-api/src/routes/favourites.docs.yaml',
  'services/white-label-api/src/routes/generation-batch.docs.yaml',
  'libs/http/src/public-credit.docs.yaml',
  'libs/http/src/content-stylesheet.docs.yaml',
  'services/white-label-api/src/routes/design-preview.docs.yaml',
  'services/white-label-api/src/routes/editor-assets.docs.yaml',
  'libs/http/src/health.docs.yaml',
  'libs/http/src/docs.docs.yaml',
];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

class GenerationError extends Error {}
function fail(message) {
  throw new GenerationError(message);
}

/**
 * The compiled routes module beside a docs file (`src/routes/x.docs.yaml` → `dist/routes/x.routes.js`,
 * or `dist/x.js` for libs/http's routers, whose modules are not named `.routes`).
 */
function routesModuleOf(docsFile) {
  const compiled = docsFile.replace('/src/', '/dist/').replace(/\.docs\.yaml$/, '');
  return [`${compiled}.routes.js`, `${compiled}.js`].find((file) => existsSync(join(root, file))) ?? null;
}

/**
 * The guards (route declarations) a compiled routes module exports, also those of an exported
 * plain object of guards (one per entity of a route declared in a loop).
 */
function guardsOf(moduleFile) {
  const isGuard = (value) => typeof value === 'function' && !!value.openapi;
  return Object.values(require(join(root, moduleFile))).flatMap((value) =>
    isGuard(value)
      ? [value]
      : value && Object.getPrototypeOf(value) === Object.prototype
        ? Object.values(value).filter(isGuard)
        : [],
  );
}

/**
 * One joi schema as OpenAPI 3.1 JSON Schema; schemas named with `.id()` are collected into
 * `components` (the same name must always describe the same shape).
 */
export function convert(schema, components = {}, where = 'a schema') {
  const { schemas: named = {}, ...converted } = joiToJson(schema);
  for (const [name, definition] of Object.entries(named)) {
    const clean = tidy(definition);
    if (components[name] && JSON.stringify(components[name]) !== JSON.stringify(clean)) {
      fail(`${where}: two different joi schemas are named ${name}`);
    }
    components[name] = clean;
  }
  return tidy(converted);
}

/**
 * joi-to-json's output made plain: a `.pattern()` key map is listed both as `patternProperties`
 * and as a property named after the regex (`"/^[1-9]$/"`), which is no property: it is dropped;
 * `items: {}` (any item) and `properties: {}` say nothing and go too.
 */
function tidy(node) {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'items' && value && typeof value === 'object' && Object.keys(value).length === 0) continue;
    out[key] = tidy(value);
  }
  if (out.patternProperties && out.properties) {
    for (const key of Object.keys(out.properties)) {
      if (/^\/.*\/[a-z]*$/.test(key)) delete out.properties[key];
    }
  }
  if (out.properties && Object.keys(out.properties).length === 0) delete out.properties;
  return out;
}

/** A YAML node of a converted schema, small maps and lists on one line as the docs files write them. */
function nodeOf(doc, value) {
  const node = doc.createNode(value);
  visit(node, {
    // A string a YAML 1.1 reader would take for a boolean (`off`, `yes`, …) is quoted.
    Scalar(_key, scalar) {
      if (typeof scalar.value === 'string' && /^(y|n|yes|no|on|off|true|false)$/i.test(scalar.value))
        scalar.type = 'QUOTE_SINGLE';
    },
    Collection(_key, collection) {
      const leaf = collection.items.every((item) => !isCollection(isMap(collection) ? item.value : item));
      if (leaf && JSON.stringify(collection.toJSON()).length <= 60) collection.flow = true;
    },
  });
  return node;
}

/** Sets `key` of a map, as its first key when it is new (a media type's `schema` before its `example`). */
function setFirst(doc, map, key, value) {
  const node = nodeOf(doc, value);
  if (map.has(key)) map.set(key, node);
  else map.items.unshift(doc.createPair(key, node));
}

/** Every operation of the document by operationId: `{ pathItem, method, node }`. */
function operationsOf(doc) {
  const found = new Map();
  for (const pathPair of doc.get('paths', true).items) {
    for (const method of METHODS) {
      const operation = pathPair.value.get(method, true);
      if (!isMap(operation)) continue;
      const id = operation.get('operationId');
      if (!id) fail(`${method.toUpperCase()} ${pathPair.key.value} has no operationId`);
      if (found.has(id)) fail(`two operations are named ${id}`);
      found.set(id, { path: pathPair.key.value, method, node: operation });
    }
  }
  return found;
}

/**
 * Puts a guard's schemas into its operation: the request body's schema, each query and path
 * parameter's schema and `required` (the parameter's prose stays in the docs file, which must
 * list every parameter the schema has, and no other), and each declared response's schema.
 */
function applyGuard(doc, operation, spec, components, sharedResponses) {
  const where = `${spec.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
  const node = operation.node;
  const body = spec.documentedBody ?? spec.body;
  if (body) {
    // A shared request body of the base file (`$ref: '#/components/requestBodies/…'`) takes the
    // schema once, as a shared response does.
    let requestBody = node.get('requestBody', true);
    const ref = isMap(requestBody) ? requestBody.get('$ref') : undefined;
    if (ref) requestBody = doc.getIn(ref.replace(/^#\//, '').split('/'), true);
    const content = isMap(requestBody) ? requestBody.get('content', true) : undefined;
    if (!isMap(content))
      fail(`${where}: the docs file has no requestBody content for the route's body schema`);
    const media = content.get('application/json', true);
    if (!isMap(media)) fail(`${where}: the docs file has no application/json request body`);
    setSchema(doc, media, convert(body, components, where), ref, sharedResponses, where);
  }
  for (const [part, location] of [
    ['query', 'query'],
    ['params', 'path'],
  ]) {
    const schema = spec[part];
    if (!schema) continue;
    const converted = convert(schema, components, where);
    const declared = converted.properties ?? {};
    // The operation's parameters and its path's; a `$ref` to a shared parameter of the base
    // file keeps that parameter's own schema (it is written once there, for every route).
    const documented = new Map();
    const shared = new Set();
    for (const list of [
      doc.getIn(['paths', operation.path, 'parameters'], true),
      node.get('parameters', true),
    ]) {
      for (const item of isSeq(list) ? list.items : []) {
        if (!isMap(item)) continue;
        const ref = item.get('$ref');
        const target = ref ? doc.getIn(ref.replace(/^#\//, '').split('/'), true) : item;
        if (!isMap(target) || target.get('in') !== location) continue;
        if (ref) shared.add(target.get('name'));
        else documented.set(item.get('name'), item);
      }
    }
    for (const [name, property] of Object.entries(declared)) {
      if (shared.has(name)) continue;
      const item = documented.get(name);
      if (!item) fail(`${where}: the docs file does not describe the ${location} parameter ${name}`);
      const { description, ...shape } = property;
      if (description && !item.has('description')) item.set('description', description);
      const required = (converted.required ?? []).includes(name);
      if (required) item.set('required', true);
      else item.delete('required');
      item.set('schema', nodeOf(doc, shape));
      documented.delete(name);
    }
    for (const name of documented.keys()) {
      fail(
        `${where}: the docs file describes the ${location} parameter ${name}, which the route's schema has not`,
      );
    }
  }
  for (const [status, schema] of Object.entries(spec.response ?? {})) {
    let response = node.getIn(['responses', String(status)], true);
    if (!isMap(response))
      fail(`${where}: the docs file has no ${status} response for the route's response schema`);
    // A shared response of the base file (`$ref: '#/components/responses/…'`) takes the schema
    // once; every route that answers with it must declare the same one.
    const ref = response.get('$ref');
    if (ref) response = doc.getIn(ref.replace(/^#\//, '').split('/'), true);
    const media = isMap(response) ? response.getIn(['content', 'application/json'], true) : undefined;
    if (!isMap(media)) fail(`${where}: the docs file's ${status} response has no application/json content`);
    setSchema(doc, media, convert(schema, components, where), ref, sharedResponses, where);
  }
}

/**
 * Puts a converted schema into a media object; one reached by `$ref` (a shared request body or
 * response) is filled once, and every route that uses it must declare the same schema.
 */
function setSchema(doc, media, converted, ref, shared, where) {
  if (ref) {
    const earlier = shared.get(ref);
    if (earlier && earlier !== JSON.stringify(converted))
      fail(`${where}: another route declares ${ref} otherwise`);
    shared.set(ref, JSON.stringify(converted));
  }
  setFirst(doc, media, 'schema', converted);
}

/** Every `*.docs.yaml` of the routers and libs/http: each must be in DOCS_FILES, or it would be left out. */
function unlistedDocsFiles() {
  const dirs = [
    'libs/http/src',
    ...readdirSync(join(root, 'services')).map((service) => `services/${service}/src/routes`),
  ];
  return dirs
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => readdirSync(join(root, dir)).map((file) => `${dir}/${file}`))
    .filter((file) => file.endsWith('.docs.yaml') && !DOCS_FILES.includes(file));
}

/** The document as text (not yet formatted), from the base, the docs files and the routes. */
export function generate() {
  const unlisted = unlistedDocsFiles();
  if (unlisted.length) fail(`${unlisted.join(', ')}: not in DOCS_FILES of scripts/gen-openapi.mjs`);
  const doc = parseDocument(readFileSync(join(root, BASE), 'utf8'));
  const paths = doc.createNode({});
  const routeModules = [];
  for (const file of DOCS_FILES) {
    const part = parseDocument(readFileSync(join(root, file), 'utf8'));
    if (part.errors.length) fail(`${file}: ${part.errors[0].message}`);
    for (const key of part.contents.items.map((pair) => pair.key.value)) {
      if (key !== 'paths') fail(`${file}: only \`paths\` belongs in a docs file (found ${key})`);
    }
    for (const pair of part.get('paths', true).items) {
      if (paths.has(pair.key.value)) fail(`${file}: ${pair.key.value} is described twice`);
      paths.items.push(pair);
    }
    const moduleFile = routesModuleOf(file);
    if (moduleFile) routeModules.push(moduleFile);
  }
  // paths goes where the base file leaves it: before `components`.
  const contents = doc.contents;
  const at = contents.items.findIndex((pair) => pair.key.value === 'components');
  contents.items.splice(at < 0 ? contents.items.length : at, 0, doc.createPair('paths', paths));

  const operations = operationsOf(doc);
  const components = {};
  const sharedResponses = new Map();
  for (const moduleFile of routeModules) {
    for (const guard of guardsOf(moduleFile)) {
      const operation = operations.get(guard.openapi.operationId);
      if (!operation) fail(`${moduleFile}: no operation ${guard.openapi.operationId} in the docs files`);
      applyGuard(doc, operation, guard.openapi, components, sharedResponses);
    }
  }
  const schemas = doc.getIn(['components', 'schemas'], true);
  for (const [name, schema] of Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) {
    if (schemas.has(name)) fail(`${name} is declared at a route and written in ${BASE}: keep one`);
    schemas.set(name, nodeOf(doc, schema));
  }
  doc.commentBefore =
    ' Generated by `npm run gen:openapi` (scripts/gen-openapi.mjs) from docs/openapi.base.yaml, the\n' +
    " routers' *.docs.yaml files and the joi schemas of the routes: do not edit, edit those.";
  return doc.toString({ lineWidth: 0 });
}

async function main() {
  const check = process.argv.includes('--check');
  const path = join(root, OUTPUT);
  const options = await prettier.resolveConfig(path);
  const next = await prettier.format(generate(), { ...options, parser: 'yaml' });
  const current = readFileSync(path, 'utf8');
  if (next === current) return;
  if (check) {
    console.error(
      `${OUTPUT} is not what scripts/gen-openapi.mjs writes from the routes and their docs files: ` +
        'run `npm run gen:openapi` and commit the result.',
    );
    process.exitCode = 1;
    return;
  }
  writeFileSync(path, next);
  console.log(`wrote ${OUTPUT}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main().catch((error) => {
    console.error(error instanceof GenerationError ? `gen:openapi: ${error.message}` : error);
    process.exitCode = 1;
  });
}
