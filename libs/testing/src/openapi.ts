import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { REPO_ROOT } from './index';

/**
 * Response validation against docs/openapi.yaml for integration tests: a test that checks its
 * responses here keeps the document and the code in step (an undocumented route, status or
 * field fails the test).
 */

/** One response as a test saw it. */
export interface ObservedResponse {
  method: string;
  /** A path (`/api/v2/rest/products?lang=all`) or a full URL; the query is ignored. */
  url: string;
  status: number;
  body: unknown;
  /** The response's Content-Type; `application/json` when not given. */
  contentType?: string | null;
}

/** A response read by checkedFetch(), already validated. */
export interface CheckedResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON responses, the text otherwise, undefined when empty. */
  body: T;
  text: string;
}

/** A documented schema (response, request body or component), for compileAll(). */
export interface DocumentedSchema {
  /** Human-readable location, e.g. `GET /api/v2/rest/products 200 application/json`. */
  label: string;
  /** JSON pointer into the document. */
  pointer: string;
}

export interface OpenApiValidator {
  /** Problems of one response against the document; empty when it matches. */
  validate(method: string, url: string, status: number, body: unknown, contentType?: string | null): string[];
  /** Throws an Error listing the problems and the body when the response does not match. */
  expectValid(res: ObservedResponse): void;
  /** fetch(), then expectValid() on the response; returns the read body. */
  fetch<T = unknown>(input: string | URL, init?: RequestInit): Promise<CheckedResponse<T>>;
  /** Every schema of the document: responses, request bodies, parameters, components. */
  schemas(): DocumentedSchema[];
  /** Compiles every schema of schemas(); returns the failures (broken $refs, bad keywords). */
  compileAll(): string[];
  /**
   * Problems of the document's examples: an operation whose request body has no example, an
   * operation with no example of a successful (2xx) response that has a body, and an example
   * that its schema refuses (checked as strictly as the responses the tests observe).
   */
  exampleProblems(): string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** The base URI the document is registered under in Ajv; `#/components/...` refs resolve against it. */
const DOCUMENT_ID = 'https://openapi.contract.test/openapi.json';
const BODY_PREVIEW_CHARS = 2_000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointerOf(tokens: string[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join('');
}

/** The value at a JSON pointer (`/a/b~1c`) of the document. */
function at(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Json)[token];
  }
  return node;
}

/** `type/subtype` in lower case, without parameters. */
function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

interface PathMatcher {
  template: string;
  segments: Array<string | RegExp | null>;
  templated: number;
}

function pathMatchers(paths: Json): PathMatcher[] {
  return Object.keys(paths)
    .map((template) => {
      const segments = template
        .split('/')
        .slice(1)
        // A whole-segment parameter matches any segment; one inside a segment (`x.{hash}.js`)
        // matches the segment with the literal parts around it.
        .map((s) => {
          if (/^\{[^}]+\}$/.test(s)) return null;
          if (!/\{[^}]+\}/.test(s)) return s;
          const literal = s.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
          return new RegExp(`^${literal.join('[^/]+')}$`);
        });
      return { template, segments, templated: segments.filter((s) => typeof s !== 'string').length };
    })
    .sort((a, b) => a.templated - b.templated);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pathOf(url: string): string {
  const path = new URL(url, 'http://localhost').pathname;
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function describeError(e: ErrorObject): string {
  const where = e.instancePath || '(root)';
  const params: Record<string, unknown> = e.params;
  switch (e.keyword) {
    case 'additionalProperties':
      return `${where}: unexpected property "${String(params.additionalProperty)}"`;
    case 'required':
      return `${where}: missing property "${String(params.missingProperty)}"`;
    case 'enum':
      return `${where}: must be one of ${JSON.stringify(params.allowedValues)}`;
    case 'const':
      return `${where}: must be ${JSON.stringify(params.allowedValue)}`;
    case 'propertyNames':
      return `${where}: property name "${String(params.propertyName)}" is not allowed`;
    default:
      return `${where}: ${e.message ?? e.keyword}`;
  }
}

function preview(body: unknown): string {
  let text: string;
  try {
    text = typeof body === 'string' ? body : (JSON.stringify(body, null, 2) ?? String(body));
  } catch {
    text = String(body);
  }
  return text.length > BODY_PREVIEW_CHARS ? `${text.slice(0, BODY_PREVIEW_CHARS)}… (truncated)` : text;
}

function isEmptyBody(body: unknown): boolean {
  return body === undefined || body === null || body === '';
}

/**
 * Every error response of every service carries a stable `code` (libs/http/src/codes.ts), whatever
 * its documented schema says: checked on each response a test validates, across the whole suite.
 */
export function errorCodeProblems(status: number, body: unknown): string[] {
  if (status < 400 || isEmptyBody(body)) return [];
  if (!isObject(body)) return [`error response ${status} is not a JSON object with a code`];
  return typeof body.code === 'string' && /^[a-z_]+$/.test(body.code)
    ? []
    : [`error response ${status} has no \`code\` (every error body needs one)`];
}

/**
 * The environment variable naming the directory where a test run records the operations whose
 * successful (2xx) answer a test validated against docs/openapi.yaml (one file per worker);
 * the global teardown lists the operations none validated (openapi-coverage.ts).
 */
export const VALIDATED_OPERATIONS_DIR = 'TEST_VALIDATED_OPERATIONS_DIR';

const recorded = new Set<string>();

/** Records (once per worker) that a test validated a successful answer of `operation` (`GET /x/{id}`). */
function recordValidated(operation: string): void {
  const dir = process.env[VALIDATED_OPERATIONS_DIR];
  if (!dir || recorded.has(operation)) return;
  recorded.add(operation);
  appendFileSync(join(dir, `${process.pid}.txt`), `${operation}\n`);
}

/** `GET /x/{id}` of every operation of a document that documents a successful (2xx) response. */
export function operationsWithSuccess(document: unknown): string[] {
  const paths = isObject(document) && isObject(document.paths) ? document.paths : {};
  return Object.entries(paths).flatMap(([template, item]) =>
    isObject(item)
      ? METHODS.filter((verb) => {
          const operation = item[verb];
          return (
            isObject(operation) &&
            isObject(operation.responses) &&
            Object.keys(operation.responses).some((status) => status.startsWith('2'))
          );
        }).map((verb) => `${verb.toUpperCase()} ${template}`)
      : [],
  );
}

/** The validator of one OpenAPI document; `onValid` hears each operation whose 2xx answer matched. */
export function createOpenApiValidator(
  document: unknown,
  name = 'docs/openapi.yaml',
  onValid?: (operation: string) => void,
): OpenApiValidator {
  if (!isObject(document) || !isObject(document.paths)) throw new Error(`${name} has no paths`);
  const doc = document;
  const paths = document.paths;
  const matchers = pathMatchers(paths);

  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (pointer: string): ValidateFunction => {
    let fn = compiled.get(pointer);
    if (!fn) {
      const fragment = pointer
        .split('/')
        .map((token) => encodeURIComponent(token))
        .join('/');
      fn = ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
      compiled.set(pointer, fn);
    }
    return fn;
  };

  /** Follows `$ref`s of non-schema objects (responses, request bodies, parameters). */
  const deref = (pointer: string): { pointer: string; node: unknown } => {
    let current = pointer;
    for (let hops = 0; hops < 10; hops += 1) {
      const node = at(doc, current);
      if (!isObject(node) || typeof node.$ref !== 'string') return { pointer: current, node };
      if (!node.$ref.startsWith('#/'))
        throw new Error(`${name}: only local $refs are supported (${node.$ref})`);
      current = node.$ref.slice(1);
    }
    throw new Error(`${name}: $ref cycle at ${pointer}`);
  };

  const findPath = (path: string): string | undefined => {
    const segments = path.split('/').slice(1).map(decodeSegment);
    return matchers.find(
      (m) =>
        m.segments.length === segments.length &&
        m.segments.every(
          (s, i) => s === null || (s instanceof RegExp ? s.test(segments[i]!) : s === segments[i]),
        ),
    )?.template;
  };

  let matched: string | undefined;
  const validate: OpenApiValidator['validate'] = (method, url, status, body, contentType) => {
    matched = undefined;
    const problems = [
      ...documentedProblems(method, url, status, body, contentType),
      ...errorCodeProblems(status, body),
    ];
    if (problems.length === 0 && matched && status >= 200 && status < 300) onValid?.(matched);
    return problems;
  };

  const documentedProblems: OpenApiValidator['validate'] = (method, url, status, body, contentType) => {
    const path = pathOf(url);
    const template = findPath(path);
    if (!template) return [`path ${path} is not documented`];
    const item = paths[template] as Json;
    let verb = method.toLowerCase();
    if (verb === 'head' && !item.head) verb = 'get';
    const operation = item[verb];
    if (!isObject(operation)) {
      const documented = METHODS.filter((m) => isObject(item[m])).map((m) => m.toUpperCase());
      return [`${method.toUpperCase()} ${template} is not documented (documented: ${documented.join(', ')})`];
    }

    matched = `${verb.toUpperCase()} ${template}`;
    const responses = isObject(operation.responses) ? operation.responses : {};
    const statusKey = [String(status), `${String(status).charAt(0)}XX`, 'default'].find(
      (k) => k in responses,
    );
    if (!statusKey) {
      return [
        `status ${status} is not documented for ${verb.toUpperCase()} ${template} ` +
          `(documented: ${Object.keys(responses).join(', ')})`,
      ];
    }
    const response = deref(pointerOf(['paths', template, verb, 'responses', statusKey]));
    const content =
      isObject(response.node) && isObject(response.node.content) ? response.node.content : undefined;
    if (!content || Object.keys(content).length === 0) {
      return isEmptyBody(body)
        ? []
        : [`status ${status} of ${verb.toUpperCase()} ${template} documents no body`];
    }
    if (method.toLowerCase() === 'head') return [];

    const mediaType = mediaTypeOf(contentType ?? 'application/json');
    const documented = Object.keys(content);
    const key =
      documented.find((k) => mediaTypeOf(k) === mediaType) ??
      documented.find((k) => k.toLowerCase() === `${mediaType.split('/')[0]}/*`) ??
      documented.find((k) => k === '*/*');
    if (!key) {
      return [
        `content type ${mediaType} is not documented for ${verb.toUpperCase()} ${template} ${status} ` +
          `(documented: ${documented.join(', ')})`,
      ];
    }
    const media = content[key];
    if (!isObject(media) || media.schema === undefined) return [];
    if (isJsonMediaType(mediaType) && typeof body === 'string') {
      return [`the ${mediaType} body is a string, not parsed JSON`];
    }
    const check = compile(`${response.pointer}${pointerOf(['content', key, 'schema'])}`);
    if (check(body)) return [];
    return [...new Set((check.errors ?? []).map(describeError))];
  };

  const expectValid: OpenApiValidator['expectValid'] = (res) => {
    const problems = validate(res.method, res.url, res.status, res.body, res.contentType);
    if (problems.length === 0) return;
    throw new Error(
      `${res.method.toUpperCase()} ${res.url} -> ${res.status} does not match ${name}:\n` +
        problems.map((p) => `  - ${p}`).join('\n') +
        `\nbody:\n${preview(res.body)}`,
    );
  };

  const checkedFetch = async <T>(input: string | URL, init?: RequestInit): Promise<CheckedResponse<T>> => {
    const res = await fetch(input, init);
    const text = await res.text();
    const contentType = res.headers.get('content-type');
    let body: unknown = text === '' ? undefined : text;
    if (text !== '' && contentType && isJsonMediaType(mediaTypeOf(contentType))) {
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(
          `${init?.method ?? 'GET'} ${String(input)} -> ${res.status}: invalid JSON\n${preview(text)}`,
        );
      }
    }
    expectValid({ method: init?.method ?? 'GET', url: String(input), status: res.status, body, contentType });
    return { status: res.status, headers: res.headers, body: body as T, text };
  };

  /** Every operation of the document, with its path item, its label and its JSON pointer. */
  const operations = (): Array<{
    template: string;
    item: Json;
    operation: Json;
    label: string;
    opPointer: string;
  }> =>
    Object.entries(paths).flatMap(([template, item]) =>
      isObject(item)
        ? METHODS.flatMap((verb) => {
            const operation = item[verb];
            return isObject(operation)
              ? [
                  {
                    template,
                    item,
                    operation,
                    label: `${verb.toUpperCase()} ${template}`,
                    opPointer: pointerOf(['paths', template, verb]),
                  },
                ]
              : [];
          })
        : [],
    );

  /** The statuses an operation documents, each with its (dereferenced) response object. */
  const responsesOf = (operation: Json, opPointer: string) =>
    Object.keys(isObject(operation.responses) ? operation.responses : {}).map((status) => ({
      status,
      ...deref(`${opPointer}${pointerOf(['responses', status])}`),
    }));

  const schemas = (): DocumentedSchema[] => {
    const found: DocumentedSchema[] = [];
    const addContent = (label: string, base: string, content: unknown): void => {
      if (!isObject(content)) return;
      for (const [mediaType, media] of Object.entries(content)) {
        if (isObject(media) && media.schema !== undefined) {
          found.push({
            label: `${label} ${mediaType}`,
            pointer: `${base}${pointerOf(['content', mediaType, 'schema'])}`,
          });
        }
      }
    };
    for (const { template, item, operation, label, opPointer } of operations()) {
      for (const response of responsesOf(operation, opPointer)) {
        addContent(
          `${label} ${response.status}`,
          response.pointer,
          isObject(response.node) ? response.node.content : undefined,
        );
      }
      if (operation.requestBody !== undefined) {
        const body = deref(`${opPointer}/requestBody`);
        addContent(`${label} request`, body.pointer, isObject(body.node) ? body.node.content : undefined);
      }
      const parameters = [
        ...(Array.isArray(item.parameters)
          ? item.parameters.map((_, i) => pointerOf(['paths', template, 'parameters', String(i)]))
          : []),
        ...(Array.isArray(operation.parameters)
          ? operation.parameters.map((_, i) => `${opPointer}/parameters/${i}`)
          : []),
      ];
      for (const parameterPointer of parameters) {
        const parameter = deref(parameterPointer);
        if (isObject(parameter.node) && parameter.node.schema !== undefined) {
          found.push({
            label: `${label} parameter ${String(parameter.node.name)}`,
            pointer: `${parameter.pointer}/schema`,
          });
        }
      }
    }
    const components =
      isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
    for (const schemaName of Object.keys(components)) {
      found.push({
        label: `components/schemas/${schemaName}`,
        pointer: pointerOf(['components', 'schemas', schemaName]),
      });
    }
    return found;
  };

  const compileAll = (): string[] =>
    schemas().flatMap(({ label, pointer }) => {
      try {
        compile(pointer);
        return [];
      } catch (err) {
        return [`${label}: ${err instanceof Error ? err.message : String(err)}`];
      }
    });

  /** The examples of a request body's or response's content, by media type (`example` or `examples`). */
  const examplesOf = (
    base: string,
    node: unknown,
  ): Array<{ mediaType: string; pointer: string; value: unknown }> => {
    const content = isObject(node) && isObject(node.content) ? node.content : {};
    return Object.entries(content).flatMap(([mediaType, media]) => {
      if (!isObject(media)) return [];
      const pointer = `${base}${pointerOf(['content', mediaType, 'schema'])}`;
      const named = isObject(media.examples) ? Object.values(media.examples) : [];
      return [
        ...(media.example !== undefined ? [{ mediaType, pointer, value: media.example }] : []),
        ...named.filter(isObject).map((example) => ({ mediaType, pointer, value: example.value })),
      ];
    });
  };

  const exampleProblems = (): string[] => {
    const problems: string[] = [];
    const check = (label: string, examples: ReturnType<typeof examplesOf>): void => {
      for (const { mediaType, pointer, value } of examples) {
        if (!isJsonMediaType(mediaTypeOf(mediaType))) {
          if (typeof value !== 'string') problems.push(`${label} ${mediaType}: the example is not a string`);
          continue;
        }
        const validateExample = compile(pointer);
        if (!validateExample(value))
          problems.push(
            ...[...new Set((validateExample.errors ?? []).map(describeError))].map(
              (p) => `${label} ${mediaType} example: ${p}`,
            ),
          );
      }
    };
    for (const { operation, label, opPointer } of operations()) {
      if (operation.requestBody !== undefined) {
        const body = deref(`${opPointer}/requestBody`);
        const examples = examplesOf(body.pointer, body.node);
        if (examples.length === 0) problems.push(`${label}: the request body has no example`);
        check(`${label} request`, examples);
      }
      let successExamples = 0;
      let successBodies = 0;
      for (const response of responsesOf(operation, opPointer)) {
        const examples = examplesOf(response.pointer, response.node);
        check(`${label} ${response.status}`, examples);
        if (!response.status.startsWith('2')) continue;
        if (isObject(response.node) && isObject(response.node.content)) successBodies += 1;
        successExamples += examples.length;
      }
      if (successBodies > 0 && successExamples === 0)
        problems.push(`${label}: no successful response has an example`);
    }
    return problems;
  };

  return { validate, expectValid, fetch: checkedFetch, schemas, compileAll, exampleProblems };
}

const validators = new Map<string, OpenApiValidator>();
const documents = new Map<string, Record<string, unknown>>();

/** The parsed docs/openapi.yaml, for tests that hold a contract in code against it. */
export function openApiDocument(
  documentPath = join(REPO_ROOT, 'docs', 'openapi.yaml'),
): Record<string, unknown> {
  let document = documents.get(documentPath);
  if (!document) documents.set(documentPath, (document = parse(readFileSync(documentPath, 'utf8')) as Json));
  return document;
}

/** The validator of the repository's docs/openapi.yaml (or another file), loaded once. */
export function openApiValidator(documentPath = join(REPO_ROOT, 'docs', 'openapi.yaml')): OpenApiValidator {
  let validator = validators.get(documentPath);
  if (!validator) {
    const name = documentPath.startsWith(REPO_ROOT) ? documentPath.slice(REPO_ROOT.length + 1) : documentPath;
    const isRepositoryDocument = documentPath === join(REPO_ROOT, 'docs', 'openapi.yaml');
    validator = createOpenApiValidator(
      parse(readFileSync(documentPath, 'utf8')),
      name,
      isRepositoryDocument ? recordValidated : undefined,
    );
    validators.set(documentPath, validator);
  }
  return validator;
}

/**
 * Throws (failing the test) unless the response matches docs/openapi.yaml, e.g.
 * `expectMatchesContract('GET', '/api/v2/rest/products?lang=all', 200, body)`.
 */
export function expectMatchesContract(
  method: string,
  url: string,
  status: number,
  body: unknown,
  contentType?: string | null,
): void {
  openApiValidator().expectValid({ method, url, status, body, contentType });
}

/** fetch() whose response must match docs/openapi.yaml; returns the parsed body. */
export function checkedFetch<T = unknown>(
  input: string | URL,
  init?: RequestInit,
): Promise<CheckedResponse<T>> {
  return openApiValidator().fetch<T>(input, init);
}
