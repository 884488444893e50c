// docs/openapi.yaml is generated (scripts/gen-openapi.mjs) from the routes (their guard()
// declarations and their routers), the routers' *.docs.yaml files and docs/openapi.base.yaml:
// this test fails when the committed document is not what the generator writes (edit the
// sources and run `npm run gen:openapi`), or when a route declares what its docs file cannot take.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';

function run(args: string[]): { status: number; output: string } {
  try {
    const output = execFileSync(process.execPath, args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: 'pipe' });
    return { status: 0, output };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describe('the generated OpenAPI document', () => {
  test('when it is generated again from the routes and their docs files, then it is the committed docs/openapi.yaml', () => {
    // The generator reads the compiled routes: compile them first (incremental, quick when built).
    const tsc = run([
      join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
      '-b',
      'services/catalogue-api',
      'services/white-label-api',
    ]);
    expect(tsc.output).toBe('');
    const check = run(['scripts/gen-openapi.mjs', '--check']);
    expect(check.output).toBe('');
    expect(check.status).toBe(0);
  }, 120_000);
});

/** JSON Schema of joi schemas built by `source` (an expression over `Joi`), as the generator converts them. */
function converted(source: string): unknown {
  const script = `
    import { createRequire } from 'node:module';
    import { convert } from './scripts/gen-openapi.mjs';
    const Joi = createRequire(import.meta.url)('joi');
    process.stdout.write(JSON.stringify(convert(${source})));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output) as unknown;
}

describe('the joi conversion of the generator (joi-to-json and its three fixes)', () => {
  test('when an object limits its number of keys, then the schema has minProperties and maxProperties', () => {
    expect(converted('Joi.object({ a: Joi.string(), b: Joi.string() }).min(1).max(2)')).toMatchObject({
      minProperties: 1,
      maxProperties: 2,
    });
  });

  test('when keys are given by a pattern of a key schema, then they are propertyNames with additionalProperties', () => {
    expect(converted("Joi.object().pattern(Joi.string().valid('cs', 'en'), Joi.number())")).toEqual({
      type: 'object',
      propertyNames: { type: 'string', enum: ['cs', 'en'] },
      additionalProperties: { type: 'number' },
    });
  });

  test('when keys are given by a regex, then they are patternProperties and no property is named after the regex', () => {
    expect(converted('Joi.object().pattern(/^[1-9]$/, Joi.number())')).toEqual({
      type: 'object',
      patternProperties: { '^[1-9]$': { type: 'number' } },
      additionalProperties: false,
    });
  });

  test('when alternatives also allow null, then null is one more alternative (not a type beside them)', () => {
    expect(converted('Joi.alternatives().try(Joi.string(), Joi.number()).allow(null)')).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
    });
  });
});

/** The statuses the generator documents for a route of a router's kind with this declaration. */
function answers(auth: string, spec: string): unknown {
  const script = `
    import { createRequire } from 'node:module';
    import { answersOf } from './scripts/gen-openapi.mjs';
    const Joi = createRequire(import.meta.url)('joi');
    process.stdout.write(JSON.stringify(answersOf({ auth: '${auth}', spec: ${spec} })));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output) as unknown;
}

describe('the statuses of an operation (from its router and its guard)', () => {
  test('when a catalogue route has no input, then it answers its schema and the API token router shared answers', () => {
    expect(answers('apiToken', "{ operationId: 'x', response: { 200: Joi.object() } }")).toEqual({
      200: true,
      401: 'Unauthorized',
      429: 'TooManyRequests',
      500: 'ServerError',
      503: 'Unavailable',
    });
  });

  test('when a licensed route takes a body, then 422 and the body answers are added to the licence router ones', () => {
    expect(answers('whiteLabelLicence', "{ operationId: 'x', body: Joi.object() }")).toEqual({
      400: 'BadRequest',
      401: 'WhiteLabelUnauthorized',
      403: 'WlForbidden',
      413: 'PayloadTooLarge',
      415: 'UnsupportedMediaType',
      422: 'Unprocessable',
      429: 'TooManyRequests',
    });
  });

  test('when the guard names statuses, then they add, replace or remove answers', () => {
    expect(
      answers(
        'whiteLabelToken',
        "{ operationId: 'x', params: Joi.object(), statuses: { 404: 'WlEntityNotFound', 422: true, 429: false } }",
      ),
    ).toEqual({ 401: 'WhiteLabelUnauthorized', 403: 'Forbidden', 404: 'WlEntityNotFound', 422: true });
  });

  test('when a route is public, then it answers only what it declares', () => {
    expect(answers('public', "{ operationId: 'x', statuses: { 200: true, 304: true } }")).toEqual({
      200: true,
      304: true,
    });
  });
});
