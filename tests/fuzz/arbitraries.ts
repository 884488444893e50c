// Requests to every operation of both APIs, generated from docs/openapi.yaml (the contract the
// suite already checks responses against), for the no-5xx fuzz test and the cross-tenant property
// test. A body starts as a value of the operation's request schema (or one of its examples) and is
// then, often, made hostile: a subtree swapped for a wrong type, a deep nesting, an unusable
// string, a prototype key; unknown fields added; required ones dropped. Ids come, when the caller
// gives them, from pools of ids that exist (in the victim eshop, for the tenancy test).
//
// Written here rather than taken from a library: the JSON-Schema-to-fast-check packages are
// archived and target fast-check 1–2, and none mutates values away from the schema.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { REPO_ROOT } from '@catalogue/testing';

type Json = Record<string, unknown>;
type Schema = Json;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const DOCUMENT = parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.yaml'), 'utf8')) as Json;

function resolve(node: unknown): Json {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    if (hops > 10) throw new Error(`$ref cycle at ${String(current.$ref)}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, token) => (at as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')], DOCUMENT);
  }
  return isObject(current) ? current : {};
}

export type Api = 'catalogue' | 'white-label';

export interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}

export interface Operation {
  api: Api;
  method: string;
  /** The documented template, e.g. `/api/v3/white-label/content/{entity_id}/type/{entity_type}`. */
  template: string;
  parameters: Parameter[];
  /** The JSON request body schema, when the operation documents one. */
  body?: Schema;
  /** True for the operations that change something (every method but GET). */
  write: boolean;
}

/** Every documented operation of the catalogue API (v1, v2) and the white-label API (v3). */
export const OPERATIONS: Operation[] = Object.entries(DOCUMENT.paths as Json).flatMap(([template, raw]) => {
  const api: Api | undefined = template.startsWith('/api/v3/white-label')
    ? 'white-label'
    : template.startsWith('/api/v1/') || template.startsWith('/api/v2/')
      ? 'catalogue'
      : undefined;
  if (!api) return [];
  const item = raw as Json;
  return ['get', 'post', 'put', 'delete'].flatMap((verb): Operation[] => {
    const operation = item[verb];
    if (!isObject(operation)) return [];
    const parameters = [
      ...((item.parameters as unknown[]) ?? []),
      ...((operation.parameters as unknown[]) ?? []),
    ]
      .map(resolve)
      .filter((p) => p.in === 'path' || p.in === 'query')
      .map((p) => ({ name: String(p.name), in: p.in as 'path' | 'query', schema: resolve(p.schema) }));
    const requestBody = operation.requestBody ? resolve(operation.requestBody) : undefined;
    const media =
      requestBody && isObject(requestBody.content) ? requestBody.content['application/json'] : undefined;
    return [
      {
        api,
        method: verb.toUpperCase(),
        template,
        parameters,
        body: isObject(media) ? resolve(media.schema) : undefined,
        write: verb !== 'get',
      },
    ];
  });
});

/** Ids that exist, so generated requests reach the code behind a lookup (not only its 404). */
export interface IdPools {
  /** External ids, entity ids (strings). */
  strings: string[];
  /** Internal ids: designs, widgets, content widgets and elements, jobs, favourites, parameters, batches. */
  integers: number[];
  /** The ids a field or parameter of this name refers to (`widget_favourite_id` -> favourites). */
  byName?: Record<string, number[]>;
}

/** Every property name the document gives any schema: an unknown field of one body is often a known field of another (`variant` on a category). */
/**
 * Every property name any schema of the document has: an unknown field of one body is often a
 * known field of another (`variant` on a category, `seo_title` on a v1 item).
 */
const FIELD_SCHEMAS = new Map<string, Schema>();
collectPropertyNames(DOCUMENT.components, FIELD_SCHEMAS);

function collectPropertyNames(node: unknown, out: Map<string, Schema>): void {
  if (Array.isArray(node)) node.forEach((child) => collectPropertyNames(child, out));
  else if (isObject(node)) {
    if (isObject(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties)) {
        if (!out.has(name)) out.set(name, resolve(schema));
      }
    }
    Object.values(node).forEach((child) => collectPropertyNames(child, out));
  }
}

const EMPTY_POOLS: IdPools = { strings: [], integers: [] };

/** Looks like an id by its name: `id`, `entity_id`, `contentId`, `parameters_ids`, `ord`, `parent`… */
const ID_NAME = /(^|_)ids?$|Id$|^ord$|^parent$|^children$|^widget_id$|^brand_id$/;

// ————————————————————————————————————————— hostile values

const LONE_SURROGATE = '\ud800';
const TEXTS = [
  '',
  'x',
  ' ',
  'a\u0000b',
  `x${LONE_SURROGATE}y`,
  '\u{1F600}'.repeat(3),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  'null',
  '0',
  '-1',
  '1e309',
  '9'.repeat(40),
  'true',
  '\u202e\u200b',
  'a'.repeat(256),
  'https://',
  'javascript:alert(1)',
];
const NUMBERS = [
  0,
  -1,
  1.5,
  -0.0,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  -1e21,
  1e-7,
];
const PROTO_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype'];

/**
 * Arrays or objects nested `depth` levels deep (around the parser's limit of 64, and far past it).
 * The deep ones travel as a marker string and become raw JSON text in toJsonText(), so building
 * and serialising the body here never runs out of stack.
 */
const nested = fc
  .tuple(fc.constantFrom(2, 8, 40, 63, 64, 65, 200, 5_000), fc.boolean())
  .map(([depth, asArray]): unknown => {
    if (depth > 100) return `@@DEEP:${depth}:${asArray ? 'a' : 'o'}@@`;
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
    return value;
  });

/** JSON text of a generated body, deep-nesting markers expanded. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"@@DEEP:(\d+):([ao])@@"/g, (_, depth: string, kind: string) => {
    const n = Number(depth);
    return kind === 'a' ? `${'['.repeat(n)}1${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  });
}

const protoObject = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 1 }))
  .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown);

/** A value of the wrong kind, or the right kind at its worst. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  { arbitrary: fc.constantFrom(...TEXTS), weight: 6 },
  { arbitrary: fc.constantFrom(...NUMBERS), weight: 4 },
  { arbitrary: fc.boolean(), weight: 2 },
  { arbitrary: fc.constantFrom([], {}, [null], [{}], [[]], ['x'], [1]), weight: 4 },
  { arbitrary: nested, weight: 2 },
  { arbitrary: protoObject, weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: fc.constantFrom(100_001, 200_001).map((n) => 'x'.repeat(n)), weight: 1 },
);

// ————————————————————————————————————————— values of a schema

interface Context {
  pools: IdPools;
  depth: number;
}

function idArb(
  name: string | undefined,
  base: fc.Arbitrary<unknown>,
  type: 'string' | 'integer',
  ctx: Context,
) {
  const pool =
    type === 'string' ? ctx.pools.strings : (name && ctx.pools.byName?.[name]) || ctx.pools.integers;
  if (!name || !ID_NAME.test(name) || pool.length === 0) return base;
  return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: base, weight: 1 });
}

function stringArb(schema: Schema, name: string | undefined, ctx: Context): fc.Arbitrary<unknown> {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const parts: fc.Arbitrary<string>[] = [
    fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength ?? 12, 12)) }),
  ];
  if (typeof schema.pattern === 'string') parts.push(fc.stringMatching(new RegExp(schema.pattern)));
  if (schema.format === 'uri' || /url|src|href|image/i.test(name ?? '')) {
    parts.push(fc.webUrl(), fc.constantFrom('https://cdn.test/a.jpg', 'http://127.0.0.1/', 'ftp://x.test/'));
  }
  if (schema.format === 'date-time' || /time|since/i.test(name ?? '')) {
    parts.push(
      fc.constantFrom(
        '2026-01-01 00:00:00',
        '2026-13-45 99:99:99',
        '2026-01-01T00:00:00Z',
        '0000-00-00 00:00:00',
      ),
    );
  }
  if (maxLength !== undefined)
    parts.push(fc.constant('é'.repeat(maxLength)), fc.constant('é'.repeat(maxLength + 1)));
  return idArb(name, fc.oneof(...parts), 'string', ctx);
}

function numberArb(schema: Schema, name: string | undefined, integer: boolean, ctx: Context) {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  const base = fc.oneof(
    fc.integer({ min: Math.max(min, -2_000), max: Math.min(max, 2_000) }),
    fc.constantFrom(min, max, min - 1, max + 1, ...(integer ? [] : [0.5])),
  );
  return idArb(name, base, 'integer', ctx);
}

function objectArb(schema: Schema, ctx: Context): fc.Arbitrary<unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const known = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, sub]) => [key, valueArb(resolve(sub), key, ctx)]),
    ),
    { requiredKeys: required.filter((key) => key in properties) },
  );
  const additional = isObject(schema.additionalProperties) ? resolve(schema.additionalProperties) : undefined;
  if (!additional) return known;
  const names = isObject(schema.propertyNames) ? schema.propertyNames : {};
  const key: fc.Arbitrary<string> = Array.isArray(names.enum)
    ? fc.constantFrom(...(names.enum as string[]))
    : typeof names.pattern === 'string'
      ? fc.oneof(
          fc.stringMatching(new RegExp(names.pattern)),
          ...(ctx.pools.byName?.contentId?.length
            ? [fc.constantFrom(...ctx.pools.byName.contentId.map(String))]
            : []),
        )
      : fc.string({ maxLength: 8 });
  const extra = fc.dictionary(key, valueArb(additional, undefined, ctx), {
    minKeys: typeof schema.minProperties === 'number' ? Math.min(schema.minProperties, 3) : 0,
    maxKeys: 3,
  });
  return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...(a as Json) }));
}

function arrayArb(schema: Schema, name: string | undefined, ctx: Context): fc.Arbitrary<unknown> {
  const items = resolve(schema.items);
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : 1_000;
  // Short arrays mostly: a full batch is slow and says little more than three items do.
  const short = fc.array(valueArb(items, name, ctx), {
    minLength: minItems,
    maxLength: Math.max(minItems, 3),
  });
  if (maxItems > 20 || ctx.depth > 1) return short;
  return fc.oneof(
    { arbitrary: short, weight: 9 },
    {
      arbitrary: fc.array(valueArb(items, name, ctx), { minLength: maxItems + 1, maxLength: maxItems + 1 }),
      weight: 1,
    },
  );
}

/** A value of `schema` (a property named `name`), mostly valid; `examples` are taken as they are. */
export function valueArb(schema: Schema, name: string | undefined, ctx: Context): fc.Arbitrary<unknown> {
  const inner = { ...ctx, depth: ctx.depth + 1 };
  if (ctx.depth > 6) return fc.constant(null);
  const choices: fc.Arbitrary<unknown>[] = [];
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key]))
      choices.push(...(schema[key] as unknown[]).map((s) => valueArb(resolve(s), name, inner)));
  }
  if (Array.isArray(schema.enum)) choices.push(fc.constantFrom(...(schema.enum as unknown[])));
  if ('const' in schema) choices.push(fc.constant(schema.const));
  const types = Array.isArray(schema.type)
    ? (schema.type as string[])
    : schema.type
      ? [String(schema.type)]
      : [];
  if (!types.length && !choices.length && (schema.properties || schema.additionalProperties))
    types.push('object');
  for (const type of types) {
    if (type === 'string') choices.push(stringArb(schema, name, ctx));
    else if (type === 'integer' || type === 'number')
      choices.push(numberArb(schema, name, type === 'integer', ctx));
    else if (type === 'boolean') choices.push(fc.boolean());
    else if (type === 'null') choices.push(fc.constant(null));
    else if (type === 'array') choices.push(arrayArb(schema, name, inner));
    else if (type === 'object') choices.push(objectArb(schema, inner));
  }
  if (Array.isArray(schema.examples) && schema.examples.length)
    choices.push(fc.constantFrom(...(schema.examples as unknown[])));
  return choices.length ? fc.oneof(...choices) : fc.jsonValue({ maxDepth: 2 });
}

// ————————————————————————————————————————— mutation

/** Every path (keys from the root) of objects and arrays inside `value`, the root included. */
function containerPaths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  if (value !== null && typeof value === 'object') {
    out.push(at);
    if (out.length < 200) {
      for (const [key, child] of Object.entries(value)) {
        containerPaths(child, [...at, Array.isArray(value) ? Number(key) : key], out);
      }
    }
  }
  return out;
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function withAt(
  value: unknown,
  path: (string | number)[],
  change: (container: Json | unknown[]) => void,
): unknown {
  const copy = clone(value);
  let node = copy as Json;
  for (const key of path) node = node[key as string] as Json;
  change(node);
  return copy;
}

/** A field another body has, with a value of its own schema (or a hostile one). */
const foreignField: fc.Arbitrary<[string, unknown]> = fc
  .constantFrom(...FIELD_SCHEMAS.keys())
  .chain((name) =>
    fc
      .oneof(
        valueArb(FIELD_SCHEMAS.get(name)!, name, { pools: { strings: [], integers: [] }, depth: 2 }),
        hostileValue,
      )
      .map((value): [string, unknown] => [name, value]),
  );

/** `value` with one hostile change somewhere inside it (or itself replaced). */
export function mutated(value: unknown): fc.Arbitrary<unknown> {
  const paths = containerPaths(value);
  if (!paths.length) return hostileValue;
  return fc
    .tuple(
      fc.constantFrom(...paths),
      fc.nat(),
      hostileValue,
      fc.constantFrom('replace', 'add', 'drop', 'proto', 'foreign'),
      foreignField,
    )
    .map(([path, pick, hostile, how, [field, fieldValue]]) =>
      withAt(value, path, (container) => {
        const keys = Object.keys(container);
        const key = keys.length ? keys[pick % keys.length]! : '0';
        if (how === 'replace' || (how === 'drop' && !keys.length)) (container as Json)[key] = hostile;
        else if (how === 'drop') {
          if (Array.isArray(container)) container.splice(Number(key), 1);
          else delete container[key];
        } else if (Array.isArray(container)) container.push(hostile);
        else if (how === 'proto')
          Object.defineProperty(container, PROTO_KEYS[pick % PROTO_KEYS.length]!, {
            value: hostile,
            enumerable: true,
            configurable: true,
            writable: true,
          });
        else if (how === 'foreign') container[field] = fieldValue;
        else container[`unknown_${pick % 5}`] = hostile;
      }),
    );
}

// ————————————————————————————————————————— requests

export interface GeneratedRequest {
  api: Api;
  method: string;
  /** The path with its query string, exactly as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Which operation it was generated for (for messages). */
  operation: string;
}

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) as its UTF-8 bytes. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

/** Raw segments: encoded ids, and what a decoder may choke on. */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '%E2%82',
  '..',
  '%2e%2e',
  'a%2Fb',
  '0',
  '-1',
  '2147483648',
  '1e3',
  '1.5',
  '%20',
];

function pathValueArb(parameter: Parameter, pools: IdPools): fc.Arbitrary<string> {
  const valid = valueArb(parameter.schema, parameter.name, { pools, depth: 0 }).map((v) => encode(String(v)));
  return fc.oneof(
    { arbitrary: valid, weight: 8 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 1 },
    { arbitrary: fc.constantFrom(...TEXTS).map(encode), weight: 1 },
  );
}

function queryArb(parameters: Parameter[], pools: IdPools): fc.Arbitrary<string> {
  const documented = parameters.filter((p) => p.in === 'query' && p.name !== 'Origin');
  const pair = fc.oneof(
    ...(documented.length
      ? [
          fc.constantFrom(...documented).chain((p) =>
            fc.oneof(
              valueArb(p.schema, p.name, { pools, depth: 0 }).map((v) => `${p.name}=${encode(String(v))}`),
              fc
                .constantFrom(...TEXTS, 'all', 'default,cs', ',,', 'nested,nested')
                .map((v) => `${p.name}=${encode(v)}`),
              fc.constantFrom(
                `${p.name}`,
                `${p.name}=`,
                `${p.name}[]=1`,
                `${p.name}[a]=1`,
                `${p.name}=1&${p.name}=2`,
              ),
            ),
          ),
        ]
      : []),
    fc.constantFrom(...PROTO_KEYS).map((key) => `${key}=1`),
    fc.constantFrom('%zz=1', 'a=%zz', '=1', '&&', 'a[b][c]=1'),
  );
  return fc.array(pair, { maxLength: 3 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

const CONTENT_TYPES = [
  'text/plain',
  'text/csv',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/json; charset=nope',
  'multipart/form-data; boundary=x',
];

/** Bodies as raw text: malformed, truncated, of the wrong kind, with numbers JavaScript cannot hold. */
const RAW_BODIES = [
  '',
  '{',
  '[',
  '[1,]',
  'null',
  '42',
  '"x"',
  'true',
  '\ufeff[]',
  '[1e400]',
  '{"a":-0}',
  '[{"id":1e999}]',
  '{}',
  '[]',
  'id=1&name=x',
  '\u0000',
];

/** A request for `operation` from a client of `pools`' eshop (its headers are added by the sender). */
export function requestArb(
  operation: Operation,
  pools: IdPools = EMPTY_POOLS,
): fc.Arbitrary<GeneratedRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const path = fc
    .tuple(...pathParams.map((p) => pathValueArb(p, pools)))
    .map((values) =>
      values.reduce<string>(
        (at, value, i) => at.replace(`{${pathParams[i]!.name}}`, value),
        operation.template,
      ),
    );
  const valid = operation.body
    ? valueArb(operation.body, undefined, { pools, depth: 0 })
    : fc.constant(undefined);
  const body: fc.Arbitrary<string | undefined> = operation.write
    ? fc.oneof(
        { arbitrary: valid.map((v) => (v === undefined ? undefined : toJsonText(v))), weight: 5 },
        { arbitrary: valid.chain(mutated).map(toJsonText), weight: 6 },
        { arbitrary: fc.constantFrom(...RAW_BODIES), weight: 1 },
      )
    : fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: fc.constant('[]'), weight: 1 });
  const contentType = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 20 },
    { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 1 },
  );
  return fc
    .record({ path, query: queryArb(operation.parameters, pools), body, contentType })
    .map(({ path, query, body, contentType }) => ({
      api: operation.api,
      method: operation.method,
      path: `${path}${query}`,
      headers: body === undefined ? {} : ({ 'Content-Type': contentType } as Record<string, string>),
      body,
      operation: `${operation.method} ${operation.template}`,
    }));
}

/** A request to any of `operations`, each equally likely. */
export function anyRequestArb(operations: Operation[], pools?: IdPools): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(...operations.map((op) => requestArb(op, pools)));
}
