import { createOpenApiValidator } from '@catalogue/testing';
import { isWholeSuite, unvalidatedOperations } from '../src/openapi-coverage';

const document = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'The thing.',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
              },
            },
          },
          '404': { description: 'No such thing.' },
        },
      },
      delete: { responses: { '204': { description: 'Deleted.' } } },
    },
    '/things': { post: { responses: { '201': { description: 'Created.' } } } },
  },
};

function run(answers: Array<[string, string, number, unknown]>): string[] {
  const validated: string[] = [];
  const validator = createOpenApiValidator(document, 'test.yaml', (operation) => validated.push(operation));
  for (const [method, url, status, body] of answers) validator.validate(method, url, status, body);
  return unvalidatedOperations(document, validated);
}

describe('the operations no test validated', () => {
  test('when a success answer of each operation matched its schema, then none is listed', () => {
    expect(
      run([
        ['GET', '/things/1', 200, { id: 1 }],
        ['DELETE', '/things/1', 204, undefined],
        ['POST', '/things', 201, undefined],
      ]),
    ).toEqual([]);
  });

  test('when an operation was answered only with an error, or with a body its schema refuses, then it is listed', () => {
    expect(
      run([
        ['GET', '/things/1', 200, { id: 'one' }],
        ['DELETE', '/things/1', 404, { error: 'Not found', code: 'not_found' }],
        ['POST', '/things', 201, undefined],
      ]),
    ).toEqual(['GET /things/{id}', 'DELETE /things/{id}']);
  });

  test('when the run is given a path pattern or a test name, then it is not the whole suite', () => {
    const whole = { testPathPatterns: { patterns: [] } };
    expect(isWholeSuite(whole)).toBe(true);
    expect(isWholeSuite({ testPathPatterns: { patterns: ['tests/openapi'] } })).toBe(false);
    expect(isWholeSuite({ ...whole, testNamePattern: 'when' })).toBe(false);
    expect(isWholeSuite({ ...whole, onlyChanged: true })).toBe(false);
  });
});
