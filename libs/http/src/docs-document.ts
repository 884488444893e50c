/**
 * One service's part of the OpenAPI document: the operations it serves, the components they
 * reference and nothing else, with `servers: [{url: "/"}]` so that Swagger UI's "Try it out"
 * calls the service that served the page, whatever host, port or ingress path it is reached by.
 */

/** Served by every HTTP service (libs/http): probes, metrics and the reference itself. */
const EVERY_SERVICE = ['/healthz', '/readyz', '/metrics', '/docs'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `path` is `prefix` itself or below it (`/docs` covers `/docs/openapi.yaml`, not `/docsx`). */
function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/** Every `#/components/<kind>/<name>` that `value` refers to, directly or through other components. */
function referencedComponents(value: Json, components: JsonObject): Set<string> {
  const seen = new Set<string>();
  const visit = (node: Json | undefined): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/')) {
        if (seen.has(child)) continue;
        seen.add(child);
        const [kind, name] = child.slice('#/components/'.length).split('/');
        const target = components[kind ?? ''];
        if (isObject(target)) visit(target[name ?? '']);
      } else visit(child);
    }
  };
  visit(value);
  return seen;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The document restricted to the paths under `prefixes` (plus those every service serves).
 * Tags, components and security schemes that no kept operation uses are left out.
 */
export function serviceDocument(doc: JsonObject, prefixes: readonly string[]): JsonObject {
  const keep = [...prefixes, ...EVERY_SERVICE];
  const allPaths = isObject(doc.paths) ? doc.paths : {};
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(allPaths))
    if (keep.some((prefix) => under(path, prefix))) paths[path] = item;

  const operations = Object.values(paths).flatMap((item) =>
    isObject(item) ? METHODS.map((m) => item[m]).filter(isObject) : [],
  );
  const usedTags = new Set(operations.flatMap((op) => (Array.isArray(op.tags) ? op.tags : [])));
  const usedSchemes = new Set(
    [...operations.map((op) => op.security), doc.security]
      .flatMap((security) => (Array.isArray(security) ? security : []))
      .flatMap((requirement) => (isObject(requirement) ? Object.keys(requirement) : [])),
  );

  const allComponents = isObject(doc.components) ? doc.components : {};
  const refs = referencedComponents(paths, allComponents);
  const components: JsonObject = {};
  for (const [kind, entries] of Object.entries(allComponents)) {
    if (!isObject(entries)) continue;
    const kept = Object.entries(entries).filter(([name]) =>
      kind === 'securitySchemes' ? usedSchemes.has(name) : refs.has(`#/components/${kind}/${name}`),
    );
    if (kept.length > 0) components[kind] = Object.fromEntries(kept);
  }

  const out: JsonObject = { ...doc, servers: [{ url: '/' }], paths, components };
  if (Array.isArray(doc.tags))
    out.tags = doc.tags.filter(
      (tag) => isObject(tag) && typeof tag.name === 'string' && usedTags.has(tag.name),
    );
  return out;
}
