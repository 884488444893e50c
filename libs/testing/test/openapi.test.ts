import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkedFetch,
  createOpenApiValidator,
  expectMatchesContract,
  openApiValidator,
} from '@catalogue/testing';

const contract = openApiValidator();

const timestamp = '2026-11-21T10:00:00.123456Z';

function product(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'P-1',
    guid: '1b4e28ba-2fa1-11d2-883f-0016d3cca427',
    is_visible: true,
    is_loaded: true,
    name: { default: 'Chair', cs: 'Židle' },
    short_description: {},
    description: { default: '<p>A chair</p>' },
    url: { default: 'https://shop.test/chair' },
    seo_title: {},
    seo_description: {},
    image_preview: '',
    content: { html: { default: '<div>Chair</div>', cs: '' } },
    created_at: timestamp,
    updated_at: timestamp,
    ...overrides,
  };
}

describe('openApiValidator', () => {
  test('when a whoami body matches, then there are no problems', () => {
    expect(contract.validate('GET', '/api/v2/rest/whoami', 200, { data: { eshop_id: 7 } })).toEqual([]);
  });

  test('when the URL is absolute and has a query string, then the path alone is matched', () => {
    expect(
      contract.validate('get', 'http://127.0.0.1:4000/api/v2/rest/whoami?x=1', 200, {
        data: { eshop_id: 7 },
      }),
    ).toEqual([]);
  });

  test('when a body has an extra field, then the field is named', () => {
    const problems = contract.validate('GET', '/api/v2/rest/whoami', 200, {
      data: { eshop_id: 7, token: 'cat_secret' },
    });
    expect(problems).toEqual(['/data: unexpected property "token"']);
  });

  test('when a body lacks a field or has a wrong type, then each problem is listed', () => {
    expect(contract.validate('GET', '/api/v2/rest/whoami', 200, { data: {} })).toEqual([
      '/data: missing property "eshop_id"',
    ]);
    expect(contract.validate('GET', '/api/v2/rest/whoami', 200, { data: { eshop_id: '7' } })).toEqual([
      '/data/eshop_id: must be integer',
    ]);
  });

  test('when the path is not documented, then that is the problem', () => {
    expect(contract.validate('GET', '/api/v2/rest/nowhere', 200, {})).toEqual([
      'path /api/v2/rest/nowhere is not documented',
    ]);
  });

  test('when the method is not documented for the path, then that is the problem', () => {
    expect(contract.validate('PUT', '/api/v2/rest/whoami', 200, {})).toEqual([
      'PUT /api/v2/rest/whoami is not documented (documented: GET)',
    ]);
  });

  test('when the status is not documented for the operation, then that is the problem', () => {
    expect(
      contract.validate('GET', '/api/v2/rest/whoami', 418, { error: 'teapot', code: 'internal' }),
    ).toEqual(['status 418 is not documented for GET /api/v2/rest/whoami (documented: 200, 401, 429)']);
  });

  test('when a status refers to components/responses, then the referenced schema is applied', () => {
    expect(
      contract.validate('GET', '/api/v2/rest/whoami', 401, {
        error: 'Authorization token required',
        code: 'token_missing',
      }),
    ).toEqual([]);
    expect(
      contract.validate('GET', '/api/v2/rest/whoami', 401, { error: 'Nope', code: 'token_invalid' }),
    ).toEqual(['/error: must be "Authorization token required"']);
  });

  test('when an error response has no code, then that is a problem even where the schema would allow it', () => {
    expect(
      contract.validate('GET', '/api/v2/rest/whoami', 401, { error: 'Authorization token required' }),
    ).toEqual([
      '(root): missing property "code"',
      'error response 401 has no `code` (every error body needs one)',
    ]);
    expect(contract.validate('GET', '/api/v2/rest/whoami', 401, 'Unauthorized', 'text/plain')).toContain(
      'error response 401 is not a JSON object with a code',
    );
  });

  test('when a path has a template parameter, then a concrete path matches it', () => {
    const row = {
      external_id: 'SKU-1',
      status: 'done',
      updated_at: '2026-11-21T10:00:00.123456+00:00',
      field: {
        title: { value: 'Garden chair', source: 'feed' },
        tags: { value: ['a', 'b'], source: 'generated' },
      },
      parameter: [
        { label: 'Colour', value: 'green', source: 'feed' },
        {
          label: 'Weight',
          value: '4 kg',
          source: 'research',
          confidence: 80,
          reference: ['https://maker.test/c'],
        },
      ],
    };
    const body = { data: [row], meta: { current_page: 1, per_page: 200, total: 1 } };
    expect(contract.validate('GET', '/api/v2/rest/listing/42/product?page=1', 200, body)).toEqual([]);
    expect(
      contract.validate('GET', '/api/v2/rest/listing/42/product', 404, {
        error: 'Listing batch not found',
        code: 'not_found',
      }),
    ).toEqual([]);
    expect(
      contract.validate('GET', '/api/v2/rest/listing/42/product', 200, {
        ...body,
        data: [{ ...row, status: 'unknown' }],
      }),
    ).toEqual(['/data/0/status: must be one of ["pending","processing","done","failed"]']);
  });

  test('when a v2 product has every include, then it matches; an unknown field or language does not', () => {
    const full = product({
      content: {
        html: { default: '<div/>' },
        marketplace: { default: '<div/>' },
        nested: [
          [{ id: 1, class: 'w', tag: 'div', children: [{ id: 2, class: 'x', tag: 'p', children: [] }] }],
        ],
        languages_complete: ['default'],
      },
      site_link: { html: { default: '<nav/>' }, list: { default: [{ heading: 'Chairs', slug: 'chairs' }] } },
      rich_snippet: { html: { default: '<script/>' }, json: { default: { '@type': 'Product' } } },
      variant: [{ code: 'V-1', ean: null }],
    });
    const page = (item: unknown) => ({ data: [item], meta: { current_page: 1, per_page: 100, total: 1 } });
    expect(contract.validate('GET', '/api/v2/rest/products?lang=all', 200, page(full))).toEqual([]);
    expect(contract.validate('GET', '/api/v2/rest/products', 200, page({ ...full, brand_id: 'B' }))).toEqual([
      '/data/0: unexpected property "brand_id"',
    ]);
    // Typed string by the specification: "" when there is no image, never null.
    expect(
      contract.validate('GET', '/api/v2/rest/products', 200, page({ ...full, image_preview: null })),
    ).toEqual(['/data/0/image_preview: must be string']);
    expect(
      contract.validate(
        'GET',
        '/api/v2/rest/products',
        200,
        page(product({ name: { default: 'x', fr: 'y' } })),
      ),
    ).toContain('/data/0/name: property name "fr" is not allowed');
    // A product body is not a category: categories have no short_description or image_preview.
    const { image_preview: _imagePreview, ...asCategory } = product();
    expect(contract.validate('GET', '/api/v2/rest/categories', 200, page(asCategory))).toEqual([
      '/data/0: unexpected property "short_description"',
    ]);
  });

  test('when a bulk request is over the limit, then the bulk body is documented as 422', () => {
    const body = {
      success: false,
      errors: { bulk: ['Maximum 100 items allowed for bulk import'] },
      code: 'bulk_limit_exceeded',
    };
    expect(contract.validate('POST', '/api/v2/rest/products', 422, body)).toEqual([]);
    expect(contract.validate('DELETE', '/api/v2/rest/brands', 422, body)).toEqual([]);
    expect(
      contract.validate('POST', '/api/v1/products/bulk-import', 422, {
        error: 'The given data was invalid.',
        code: 'validation_failed',
        errors: { body: ['must be an array'] },
      }),
    ).toEqual([]);
  });

  test('when the content type is not documented, then that is the problem', () => {
    expect(contract.validate('GET', '/docs', 200, '<html></html>', 'text/html; charset=utf-8')).toEqual([]);
    expect(contract.validate('GET', '/docs', 200, '{}', 'application/json')).toEqual([
      'content type application/json is not documented for GET /docs 200 (documented: text/html)',
    ]);
  });

  test('when a status documents no body but one is sent, then that is the problem', () => {
    expect(contract.validate('GET', '/docs/openapi.yaml', 304, undefined)).toEqual([]);
    expect(contract.validate('GET', '/docs/openapi.yaml', 304, 'openapi: 3.1.0')).toEqual([
      'status 304 of GET /docs/openapi.yaml documents no body',
    ]);
  });

  test('when expectMatchesContract fails, then the error lists the problems and the body', () => {
    expect(() =>
      expectMatchesContract('GET', '/api/v2/rest/whoami', 200, { data: { eshop_id: 7, extra: true } }),
    ).toThrow(
      /GET \/api\/v2\/rest\/whoami -> 200 does not match docs\/openapi\.yaml:\n {2}- \/data: unexpected property "extra"\nbody:\n[\s\S]*"extra": true/,
    );
    expect(() =>
      expectMatchesContract('GET', '/api/v2/rest/whoami', 200, { data: { eshop_id: 7 } }),
    ).not.toThrow();
  });

  test('when every schema of the document is compiled, then none fails (no broken $ref)', () => {
    const schemas = contract.schemas();
    expect(schemas.length).toBeGreaterThan(100);
    expect(contract.compileAll()).toEqual([]);
  });

  test('when a document has a broken $ref, then compileAll names it', () => {
    const broken = createOpenApiValidator({
      openapi: '3.1.0',
      paths: {
        '/x': {
          get: {
            responses: {
              '200': {
                description: 'x',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } },
              },
            },
          },
        },
      },
    });
    const problems = broken.compileAll();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \/x 200 application\/json: .*Missing/);
  });

  test('when the examples are read, then every operation has a request and a response example, and each matches its schema', () => {
    expect(contract.exampleProblems()).toEqual([]);
  });

  test('when an operation lacks examples or one is wrong, then exampleProblems names each', () => {
    const json = (schema: unknown, example?: unknown) => ({
      content: { 'application/json': { schema, ...(example !== undefined && { example }) } },
    });
    const item = {
      type: 'object',
      required: ['id'],
      additionalProperties: false,
      properties: { id: { type: 'integer' } },
    };
    const document = createOpenApiValidator({
      openapi: '3.1.0',
      paths: {
        '/bare': {
          post: { requestBody: json(item), responses: { '200': { description: 'x', ...json(item) } } },
        },
        '/wrong': {
          post: {
            requestBody: json(item, { id: 'one' }),
            responses: { '200': { description: 'x', ...json(item, { id: 1, extra: true }) } },
          },
        },
        '/empty': { delete: { responses: { '204': { description: 'no body' } } } },
        '/text': {
          get: {
            responses: {
              '200': {
                description: 'x',
                content: { 'text/plain': { schema: { type: 'string' }, example: 1 } },
              },
            },
          },
        },
      },
    });
    expect(document.exampleProblems()).toEqual([
      'POST /bare: the request body has no example',
      'POST /bare: no successful response has an example',
      'POST /wrong request application/json example: /id: must be integer',
      'POST /wrong 200 application/json example: (root): unexpected property "extra"',
      'GET /text 200 text/plain: the example is not a string',
    ]);
  });
});

describe('checkedFetch', () => {
  let server: Server;
  let url: string;
  let reply: { status: number; type: string; body: string };

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(reply.status, { 'Content-Type': reply.type });
      res.end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('when the response matches, then its parsed body is returned', async () => {
    reply = { status: 200, type: 'application/json', body: '{"data":{"eshop_id":3}}' };
    const res = await checkedFetch<{ data: { eshop_id: number } }>(`${url}/api/v2/rest/whoami`);
    expect(res.status).toBe(200);
    expect(res.body.data.eshop_id).toBe(3);
  });

  test('when the response does not match, then the call rejects with the problems', async () => {
    reply = { status: 200, type: 'application/json', body: '{"data":{"eshop_id":3,"name":"x"}}' };
    await expect(checkedFetch(`${url}/api/v2/rest/whoami`)).rejects.toThrow('unexpected property "name"');
  });

  test('when the method is given in init, then that operation is checked', async () => {
    reply = { status: 200, type: 'application/json', body: '{"data":{"eshop_id":3}}' };
    await expect(checkedFetch(`${url}/api/v2/rest/whoami`, { method: 'POST' })).rejects.toThrow(
      'POST /api/v2/rest/whoami is not documented',
    );
  });
});
