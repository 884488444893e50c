// Writes docs/openapi.yaml, the OpenAPI document of every service, from the routes. Each route
// is declared with guard() (libs/http): its operationId, the joi schemas of its input and
// response bodies and the statuses it answers. The path and method come from the router the
// route is on (the services' apps are built with inert dependencies and their routers read),
// the security scheme and the answers every route of its kind shares (401, 403, 429, 500, 503;
// 422 with input; 400, 413, 415 with a body) from the router's kind (routerAuth()). The prose,
// parameter descriptions and examples come from the operation's entry in the router's
// `<name>.docs.yaml`, the rest (info, tags, shared components) from docs/openapi.base.yaml.
// Schemas are converted to JSON Schema 2020-12 (OpenAPI 3.1) by joi-to-json. Reads the compiled
// services: run as `npm run gen:openapi` (which compiles first). `--check` writes nothing and
// fails when docs/openapi.yaml is not what it would write.
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
 * The docs files whose operations come first in the document, in this order (the others follow,
 * by name). Each keeps, by operationId,
 * the prose of the operations of the router beside it: `summary`, `description`, `tags` (or the
 * file's `tag`), the descriptions and examples of parameters (and `$ref`s to shared ones of the
 * base file), the request body's description and examples, `callbacks`, and the responses the
 * route declares as described by its docs file (`true` in guard()'s `statuses`, or a status of
 * `response`). `requestIdHeader: false` leaves the X-Request-Id parameter out of its paths.
 */
export const DOCS_FILES = [
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
/**
 * Routes that are no operation of the document: the /docs page's Swagger UI assets and the
 * bulk generation progress element's module, served beside the editor's bundle.
 */
const UNDOCUMENTED = new Set([
  'GET /docs/assets/init.js',
  'GET /docs/assets/:file',
  'GET /editor/v1/ccs-batch-progress.js',
  'GET /editor/v1/ccs-batch-progress.:hash.js',
]);
/**
 * The answers every route of a router's kind shares (routerAuth() of libs/http), by status: the
 * base file's shared responses. A route's `statuses` replaces or (with `false`) removes one.
 */
const AUTH_ANSWERS = {
  apiToken: { 401: 'Unauthorized', 429: 'TooManyRequests', 500: 'ServerError', 503: 'Unavailable' },
  whiteLabelToken: { 401: 'WhiteLabelUnauthorized', 403: 'Forbidden', 429: 'TooManyRequests' },
  whiteLabelLicence: { 401: 'WhiteLabelUnauthorized', 403: 'WlForbidden', 429: 'TooManyRequests' },
  public: {},
};
/** Security requirement of a router's kind. */
const SECURITY = {
  apiToken: [{ apiToken: [] }],
  whiteLabelToken: [{ whiteLabelToken: [] }],
  whiteLabelLicence: [{ whiteLabelToken: [] }],
  public: [],
};
/** A route with a validated input answers 422; one with a body, also 400, 413 and 415 (parseBody). */
const INPUT_ANSWERS = { 422: 'Unprocessable' };
const BODY_ANSWERS = { 400: 'BadRequest', 413: 'PayloadTooLarge', 415: 'UnsupportedMediaType' };

/**
 * Enums of the base file's shared schemas that are the TypeScript vocabulary's lists, written
 * here from the compiled libs (the base file names the schema and says what it is, never its
 * values): the event types (libs/config/src/vocabulary.ts), the catalogue and white-label
 * language codes (libs/config/src/languages.ts) and the error codes (libs/http/src/codes.ts).
 */
function vocabularyEnums() {
  const config = require(join(root, 'libs/config/dist/index.js'));
  const { ERROR_CODES } = require(join(root, 'libs/http/dist/codes.js'));
  return {
    EventType: [...config.EVENT_TYPES],
    LanguageCode: [...config.CATALOGUE_API_LANGUAGES],
    WlLanguageCode: [...config.CONTENT_LANGUAGES],
    ErrorCode: Object.keys(ERROR_CODES),
  };
}

class GenerationError extends Error {}
function fail(message) {
  throw new GenerationError(message);
}

/**
 * Dependencies that are never used: the apps are only built, so their routers can be read (a
 * value of any shape, callable, whose every property is itself).
 */
function inertDeps() {
  const target = function () {};
  const inert = new Proxy(target, {
    get: (_t, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => 0 : inert),
    apply: () => inert,
    construct: () => inert,
  });
  return inert;
}

/** A route path as the document writes it: `/webhooks/:id` → `/webhooks/{id}`. */
function documentedPath(path) {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * Every declared route of every service's app, by operationId: `{ path, method, auth, spec }`
 * (spec: what guard() was given). The same operation may be served by several services (the
 * probes, the price list, the stylesheet) or on several literal paths (guard()'s `path`).
 */
export function declaredRoutes() {
  const { routerAuth } = require(join(root, 'libs/http/dist/index.js'));
  const routes = new Map();
  for (const service of readdirSync(join(root, 'services')).sort()) {
    const appFile = join(root, 'services', service, 'dist/app.js');
    if (!existsSync(appFile)) continue;
    const { createApp } = require(appFile);
    if (typeof createApp !== 'function') continue;
    const routers = createApp(inertDeps())
      .middleware.map((middleware) => middleware.router)
      .filter(Boolean);
    for (const router of routers) {
      for (const layer of router.stack) {
        if (layer.methods.length === 0) continue;
        const methods = layer.methods.filter((method) => method !== 'HEAD');
        const where = `${service}: ${methods.join(',')} ${layer.path}`;
        const guards = layer.stack.filter((fn) => fn.openapi);
        if (guards.length === 0) {
          if (methods.length === 1 && UNDOCUMENTED.has(`${methods[0]} ${layer.path}`)) continue;
          fail(`${where} is declared with no guard() (or list it in UNDOCUMENTED)`);
        }
        if (guards.length > 1 || methods.length !== 1) fail(`${where}: one guard() and one method per route`);
        const spec = guards[0].openapi;
        const route = {
          path: spec.path ?? documentedPath(layer.path),
          method: methods[0].toLowerCase(),
          auth: routerAuth(router),
          spec,
        };
        const earlier = routes.get(spec.operationId);
        if (
          earlier &&
          (earlier.path !== route.path || earlier.method !== route.method || earlier.auth !== route.auth)
        )
          fail(`${where}: ${spec.operationId} is also ${earlier.method.toUpperCase()} ${earlier.path}`);
        routes.set(spec.operationId, earlier ?? route);
      }
    }
  }
  return routes;
}

/**
 * The statuses a route answers, each with its shared response's name, or `true` when the docs
 * file describes it: those of its router's kind and input, its `statuses`, its `response`.
 */
export function answersOf(route) {
  const { spec } = route;
  const answers = { ...AUTH_ANSWERS[route.auth] };
  if (spec.params || spec.query || spec.body) Object.assign(answers, INPUT_ANSWERS);
  if (spec.body || spec.documentedBody) Object.assign(answers, BODY_ANSWERS);
  for (const status of Object.keys(spec.response ?? {})) answers[status] ??= true;
  for (const [status, answer] of Object.entries(spec.statuses ?? {})) {
    if (answer === false) delete answers[status];
    else answers[status] = answer;
  }
  return answers;
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

/**
 * The operation of a route: operationId, tags, the docs entry's prose, security, parameters,
 * request body and responses (shared ones by `$ref`, described ones from the docs entry).
 */
function operationNode(doc, route, entry, fileTag, where) {
  const { spec } = route;
  const op = doc.createNode({});
  op.set('operationId', spec.operationId);
  const tags = entry.get('tags', true);
  if (tags) op.set('tags', tags.clone());
  else if (fileTag) op.set('tags', nodeOf(doc, [fileTag]));
  const later = ['parameters', 'requestBody', 'callbacks', 'responses'];
  for (const pair of entry.items) {
    const key = pair.key.value;
    if (key === 'tags' || later.includes(key)) continue;
    if (['operationId', 'security'].includes(key))
      fail(`${where}: ${key} comes from the route and its router, not the docs file`);
    op.items.push(doc.createPair(key, pair.value.clone()));
  }
  op.set('security', nodeOf(doc, SECURITY[route.auth]));
  const parameters = entry.get('parameters', true);
  if (parameters) op.set('parameters', parameters.clone());
  const body = spec.documentedBody ?? spec.body;
  const requestBody = entry.get('requestBody', true);
  if (requestBody) {
    if (!body) fail(`${where}: the docs file describes a request body the route does not declare`);
    op.set('requestBody', requestBody.clone());
  } else if (body) {
    op.set('requestBody', doc.createNode({ required: true, content: { 'application/json': {} } }));
  }
  const callbacks = entry.get('callbacks', true);
  if (callbacks) op.set('callbacks', callbacks.clone());

  const described = entry.get('responses', true);
  const answers = answersOf(route);
  const responses = doc.createNode({});
  for (const status of Object.keys(answers).sort((a, b) => Number(a) - Number(b))) {
    const answer = answers[status];
    const own = isMap(described) ? described.get(status, true) : undefined;
    if (answer === true) {
      if (!own) fail(`${where}: the docs file does not describe the ${status} response`);
      responses.set(status, own.clone());
    } else {
      if (own)
        fail(`${where}: the ${status} response is the shared ${answer}; the docs file describes it too`);
      responses.set(status, nodeOf(doc, { $ref: `#/components/responses/${answer}` }));
    }
  }
  for (const pair of isMap(described) ? described.items : []) {
    if (!(String(pair.key.value) in answers))
      fail(`${where}: the docs file describes a ${pair.key.value} response the route does not declare`);
  }
  op.set('responses', responses);
  return op;
}

/**
 * Puts a route's schemas into its operation: the request body's schema, each query and path
 * parameter's schema and `required` (with the prose of the docs entry's parameter of that
 * name, if any; one the entry does not list is added), and each declared response's schema.
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
  for (const [schema, location] of [
    [spec.query ?? spec.documentedQuery, 'query'],
    [spec.params ?? spec.documentedParams, 'path'],
  ]) {
    if (!schema) continue;
    const converted = convert(schema, components, where);
    const declared = converted.properties ?? {};
    // The operation's parameters; a `$ref` to a shared parameter of the base file keeps that
    // parameter's own schema (it is written once there, for every route).
    const documented = new Map();
    const shared = new Set();
    let list = node.get('parameters', true);
    for (const item of isSeq(list) ? list.items : []) {
      if (!isMap(item)) continue;
      const ref = item.get('$ref');
      const target = ref ? doc.getIn(ref.replace(/^#\//, '').split('/'), true) : item;
      if (!isMap(target) || target.get('in') !== location) continue;
      if (ref) shared.add(target.get('name'));
      else documented.set(item.get('name'), item);
    }
    for (const [name, property] of Object.entries(declared)) {
      if (shared.has(name)) continue;
      let item = documented.get(name);
      if (!item) {
        item = doc.createNode({ name, in: location });
        if (!isSeq(list)) node.set('parameters', (list = doc.createNode([])));
        list.items.push(item);
      }
      const { description, ...shape } = property;
      if (description && !item.has('description')) item.set('description', description);
      const required = location === 'path' || (converted.required ?? []).includes(name);
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
    if (!isMap(response)) fail(`${where}: no ${status} response for the route's response schema`);
    // A shared response of the base file (`$ref: '#/components/responses/…'`) takes the schema
    // once; every route that answers with it must declare the same one.
    const ref = response.get('$ref');
    if (ref) response = doc.getIn(ref.replace(/^#\//, '').split('/'), true);
    const media = isMap(response) ? response.getIn(['content', 'application/json'], true) : undefined;
    if (!isMap(media)) fail(`${where}: the ${status} response has no application/json content`);
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

/**
 * Every `*.docs.yaml` of the routers and libs/http: those of DOCS_FILES in its order, then the
 * others by name (a new router's docs file is read without being listed).
 */
function docsFiles() {
  const dirs = [
    'libs/http/src',
    ...readdirSync(join(root, 'services')).map((service) => `services/${service}/src/routes`),
  ];
  const found = dirs
    .filter((dir) => existsSync(join(root, dir)))
    .flatMap((dir) => readdirSync(join(root, dir)).map((file) => `${dir}/${file}`))
    .filter((file) => file.endsWith('.docs.yaml'));
  const gone = DOCS_FILES.filter((file) => !found.includes(file));
  if (gone.length) fail(`${gone.join(', ')}: listed in DOCS_FILES but not found`);
  return [...DOCS_FILES, ...found.filter((file) => !DOCS_FILES.includes(file)).sort()];
}

/** The document as text (not yet formatted), from the base, the docs files and the routes. */
export function generate() {
  const routes = declaredRoutes();
  const doc = parseDocument(readFileSync(join(root, BASE), 'utf8'));
  const paths = doc.createNode({});
  const operations = [];
  const requestIdOf = new Map();
  const documented = new Set();
  for (const file of docsFiles()) {
    const part = parseDocument(readFileSync(join(root, file), 'utf8'));
    if (part.errors.length) fail(`${file}: ${part.errors[0].message}`);
    for (const key of part.contents.items.map((pair) => pair.key.value)) {
      if (!['tag', 'requestIdHeader', 'operations'].includes(key))
        fail(
          `${file}: only \`tag\`, \`requestIdHeader\` and \`operations\` belong in a docs file (found ${key})`,
        );
    }
    const fileTag = part.get('tag');
    const requestId = part.get('requestIdHeader') !== false;
    for (const pair of part.get('operations', true).items) {
      const id = pair.key.value;
      const route = routes.get(id);
      const where = `${file}: ${id}`;
      if (!route) fail(`${where}: no route is declared with this operationId`);
      if (documented.has(id)) fail(`${where}: described twice`);
      documented.add(id);
      let pathItem = paths.get(route.path, true);
      if (!pathItem) {
        pathItem = doc.createNode({});
        if (requestId)
          pathItem.set('parameters', doc.createNode([{ $ref: '#/components/parameters/RequestId' }]));
        paths.set(route.path, pathItem);
        requestIdOf.set(route.path, requestId);
      }
      if (requestIdOf.get(route.path) !== requestId)
        fail(`${where}: ${route.path}'s operations disagree on requestIdHeader`);
      if (pathItem.has(route.method)) fail(`${where}: two operations are ${route.method} ${route.path}`);
      const node = operationNode(doc, route, pair.value, fileTag, where);
      pathItem.set(route.method, node);
      operations.push({ path: route.path, method: route.method, node, spec: route.spec });
    }
  }
  for (const [id, route] of routes) {
    if (!documented.has(id))
      fail(
        `${id} (${route.method.toUpperCase()} ${route.path}) has no entry in the docs file beside its router`,
      );
  }
  // paths goes where the base file leaves it: before `components`.
  const contents = doc.contents;
  const at = contents.items.findIndex((pair) => pair.key.value === 'components');
  contents.items.splice(at < 0 ? contents.items.length : at, 0, doc.createPair('paths', paths));

  const baseSchemas = doc.getIn(['components', 'schemas'], true);
  for (const [name, values] of Object.entries(vocabularyEnums())) {
    const schema = baseSchemas.get(name, true);
    if (!schema) fail(`${BASE}: no schema ${name} (its enum is generated)`);
    if (schema.has('enum'))
      fail(`${BASE}: ${name}'s enum is generated from the TypeScript list: leave it out`);
    const list = doc.createNode(values);
    list.flow = values.join(', ').length < 60;
    schema.set('enum', list);
  }

  const components = {};
  const sharedResponses = new Map();
  for (const operation of operations) {
    applyGuard(doc, operation, operation.spec, components, sharedResponses);
  }
  const schemas = doc.getIn(['components', 'schemas'], true);
  for (const [name, schema] of Object.entries(components).sort(([a], [b]) => a.localeCompare(b))) {
    if (schemas.has(name)) fail(`${name} is declared at a route and written in ${BASE}: keep one`);
    schemas.set(name, nodeOf(doc, schema));
  }
  doc.commentBefore =
    " Generated by `npm run gen:openapi` (scripts/gen-openapi.mjs) from the routes' guard()\n" +
    " declarations, their routers, the routers' *.docs.yaml files and docs/openapi.base.yaml:\n" +
    ' do not edit, edit those.';
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
