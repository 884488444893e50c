// Input that once answered 500 (or a non-JSON body) — JSON nested thousands
// of levels deep, field names that are Object.prototype's own, corrupt compressed bodies, TRACE
// and methods no route implements — checked on both APIs and the credit-service. Every answer is
// a 4xx/5xx-free JSON error and the service keeps serving.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import { makeEshop } from '@catalogue/testing';
import { jsonOf, rawRequest, rawSocketRequest, serveAll, type RawReply, type RawRequest } from './services';

const ORIGIN = 'https://admin.faults.test';
const WL = '/api/v3/white-label';
const DEPTH = 10_000;

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('input faults: deep JSON, prototype keys, corrupt encodings, unknown methods', () => {
  const apps = serveAll(`${process.env.TEST_QUEUE_PREFIX}-faults`);
  let apiToken = '';
  let wlToken = '';

  beforeAll(async () => {
    const shop = await makeEshop(apps.catalogue.deps.db, { origins: [ORIGIN], credits: 100 });
    apiToken = shop.apiToken;
    wlToken = shop.whiteLabelToken;
  });

  const catalogue = (req: RawRequest) =>
    rawRequest(apps.catalogue.url, {
      ...req,
      headers: {
        Authorization: `Bearer ${apiToken}`,
        Accept: 'application/json',
        ...(req.body !== undefined && { 'Content-Type': 'application/json' }),
        ...req.headers,
      },
    });
  const whiteLabel = (req: RawRequest) =>
    rawRequest(apps.whiteLabel.url, {
      ...req,
      path: `${WL}${req.path}`,
      headers: {
        [WHITE_LABEL_TOKEN_HEADER]: wlToken,
        Origin: ORIGIN,
        Accept: 'application/json',
        ...(req.body !== undefined && { 'Content-Type': 'application/json' }),
        ...req.headers,
      },
    });
  const credit = (req: RawRequest) => rawRequest(apps.credit.url, req);

  /** A JSON error body `{error: string, …}` with a client-error status. */
  function expectJsonClientError(reply: RawReply, statuses: number[]) {
    const body = jsonOf(reply);
    expect({ status: reply.status, contentType: reply.contentType, body }).toEqual({
      status: statuses.includes(reply.status) ? reply.status : statuses[0],
      contentType: expect.stringMatching(/^application\/json/),
      body: expect.objectContaining({ error: expect.any(String) }),
    });
  }

  const CATALOGUE_WRITES: RawRequest[] = [
    { method: 'POST', path: '/api/v1/products/bulk-import' },
    { method: 'POST', path: '/api/v1/categories/bulk-import' },
    { method: 'POST', path: '/api/v1/parameters/bulk-import' },
    { method: 'POST', path: '/api/v2/rest/products' },
    { method: 'DELETE', path: '/api/v2/rest/categories' },
    { method: 'POST', path: '/api/v2/rest/brands' },
    { method: 'POST', path: '/api/v2/rest/parameters' },
    { method: 'POST', path: '/api/v2/rest/multi-import' },
    { method: 'POST', path: '/api/v2/rest/listing' },
  ];
  const WHITE_LABEL_WRITES: RawRequest[] = [
    { method: 'POST', path: '/register-entity' },
    { method: 'POST', path: '/entity/E1/type/product/design' },
    { method: 'POST', path: '/content/E1/type/product' },
    { method: 'PUT', path: '/content/E1/type/product' },
    { method: 'POST', path: '/content/element-copy/E1/type/product' },
    { method: 'POST', path: '/content/copy-widget' },
    { method: 'POST', path: '/content/E1/type/product/generate' },
    { method: 'POST', path: '/widget-favourite' },
    { method: 'POST', path: '/check-license' },
  ];

  describe('JSON nested 10,000 levels deep', () => {
    const bodies = [
      { shape: 'arrays', body: deepArray(DEPTH) },
      { shape: 'objects', body: deepObject(DEPTH) },
      {
        shape: 'arrays inside an item',
        body: `[{"id":"P1","name":{"default":"x"},"images":${deepArray(DEPTH)}}]`,
      },
      {
        shape: 'objects inside a section',
        body: `{"products":[{"id":"P1","name":{"default":"x"},"seo_title":${deepObject(DEPTH)}}]}`,
      },
    ];
    const cases = bodies.flatMap(({ shape, body }) => [
      ...CATALOGUE_WRITES.map((req) => ({ api: 'catalogue', shape, req: { ...req, body } })),
      ...WHITE_LABEL_WRITES.map((req) => ({ api: 'white-label', shape, req: { ...req, body } })),
    ]);

    test.each(cases)('when $api $req.method $req.path gets $shape, then 400 JSON', async ({ api, req }) => {
      const reply = await (api === 'catalogue' ? catalogue(req) : whiteLabel(req));

      expectJsonClientError(reply, [400]);
      expect(jsonOf(reply)).toEqual({ error: expect.stringContaining('nested'), code: 'body_too_deep' });
    });

    test('when a body is nested exactly as deep as allowed, then it is processed as usual', async () => {
      // 64 levels: a multi-import of products whose item carries a 60-deep unknown field.
      const deep = `${'['.repeat(59)}${']'.repeat(59)}`;
      const reply = await catalogue({
        method: 'POST',
        path: '/api/v2/rest/multi-import',
        body: `{"products":[{"id":"D1","name":{"default":"x"},"extra":{"a":${deep}}}]}`,
      });

      expect(reply.status).toBe(200);
    });
  });

  describe('field names that Object.prototype has', () => {
    const NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf'];

    test.each(NAMES)(
      'when white-label query keys are named %s, then the answer is JSON below 500',
      async (name) => {
        for (const path of ['/entity', '/design', '/widget', '/content/E1/type/product', '/credit']) {
          const reply = await whiteLabel({ method: 'GET', path: `${path}?${name}=1&${name}[x]=2` });
          expect({ path, status: reply.status < 500, json: jsonOf(reply) !== undefined }).toEqual({
            path,
            status: true,
            json: true,
          });
        }
      },
    );

    test.each(NAMES)('when white-label body keys are named %s, then 422 names the field', async (name) => {
      const replies = await Promise.all(
        [
          {
            method: 'POST',
            path: '/entity/E1/type/product/design',
            body: { design_id: 1, widget: [{}], [name]: 1 },
          },
          { method: 'POST', path: '/content/E1/type/product', body: { [name]: 'x' } },
          { method: 'POST', path: '/widget-favourite', body: { [name]: 'x' } },
          { method: 'PUT', path: '/content/E1/type/product', body: { [name]: { children: [] } } },
          { method: 'POST', path: '/content/E1/type/product/generate', body: { [name]: 1 } },
        ].map(({ body, ...req }) =>
          // JSON.stringify drops nothing here: a computed `__proto__` key is an own property.
          whiteLabel({ ...req, body: JSON.stringify(body) }),
        ),
      );

      for (const reply of replies) {
        if (name === '__proto__') {
          // Refused by the JSON parser (prototype poisoning), with a message that says why.
          expectJsonClientError(reply, [400]);
          expect(jsonOf(reply)).toEqual({
            error: 'JSON keys named __proto__ are not accepted',
            code: 'malformed_json',
          });
        } else {
          expectJsonClientError(reply, [422]);
          expect(Object.keys((jsonOf(reply) as { errors: object }).errors)).toContain(name);
        }
      }
    });

    test.each(NAMES)(
      'when catalogue item fields and query keys are named %s, then nothing answers 500',
      async (name) => {
        const item = JSON.stringify({ id: 'K1', name: { default: 'x', [name]: 'y' }, [name]: 1 });
        const replies = await Promise.all([
          catalogue({ method: 'POST', path: '/api/v2/rest/products', body: `[${item}]` }),
          catalogue({ method: 'POST', path: '/api/v1/products/bulk-import', body: `[${item}]` }),
          catalogue({ method: 'POST', path: '/api/v2/rest/multi-import', body: `{"${name}": [${item}]}` }),
          catalogue({ method: 'GET', path: `/api/v2/rest/products?${name}=1` }),
          catalogue({ method: 'GET', path: `/api/v1/products/list?${name}=1` }),
          catalogue({ method: 'GET', path: `/api/v2/rest/listing/1/product?${name}=1` }),
        ]);

        for (const reply of replies) {
          expect({ status: reply.status < 500, json: jsonOf(reply) !== undefined }).toEqual({
            status: true,
            json: true,
          });
        }
      },
    );
  });

  describe('corrupt Content-Encoding', () => {
    const json = Buffer.from('[{"id":"Z1","name":{"default":"Zipped"}}]');
    const ENCODINGS = [
      { encoding: 'gzip', good: gzipSync(json) },
      { encoding: 'deflate', good: deflateSync(json) },
      { encoding: 'br', good: brotliCompressSync(json) },
    ];
    const corrupt = (good: Buffer) =>
      Buffer.concat([good.subarray(0, 6), Buffer.from('not compressed at all')]);

    test.each(ENCODINGS)(
      'when a $encoding body is corrupt, then 400 JSON on both APIs',
      async ({ encoding, good }) => {
        const headers = { 'Content-Encoding': encoding };
        const replies = await Promise.all([
          catalogue({ method: 'POST', path: '/api/v2/rest/products', headers, body: corrupt(good) }),
          catalogue({ method: 'POST', path: '/api/v2/rest/listing', headers, body: corrupt(good) }),
          whiteLabel({ method: 'POST', path: '/register-entity', headers, body: corrupt(good) }),
          // Not compressed at all, though the header says so.
          catalogue({ method: 'POST', path: '/api/v2/rest/products', headers, body: json }),
        ]);

        for (const reply of replies) {
          expectJsonClientError(reply, [400]);
          expect(jsonOf(reply)).toEqual({
            error: `The request body is not valid ${encoding} data`,
            code: 'body_encoding_invalid',
          });
        }
      },
    );

    test.each(ENCODINGS)(
      'when a $encoding body is intact, then it is imported',
      async ({ encoding, good }) => {
        const reply = await catalogue({
          method: 'POST',
          path: '/api/v2/rest/products',
          headers: { 'Content-Encoding': encoding },
          body: good,
        });

        expect(reply.status).toBe(200);
        expect(jsonOf(reply)).toMatchObject({ success: true });
      },
    );

    test('when the encoding is unknown, then 415 JSON says which encodings are accepted', async () => {
      const reply = await catalogue({
        method: 'POST',
        path: '/api/v2/rest/products',
        headers: { 'Content-Encoding': 'compress' },
        body: json,
      });

      expectJsonClientError(reply, [415]);
      expect(jsonOf(reply)).toEqual({
        error: 'Unsupported Content-Encoding: send identity, gzip, deflate or br',
        code: 'unsupported_media_type',
      });
    });
  });

  describe('methods no route implements', () => {
    const SERVICES = [
      { service: 'catalogue', send: catalogue, path: '/api/v2/rest/products' },
      { service: 'white-label', send: (req: RawRequest) => whiteLabel(req), path: '/entity' },
      { service: 'credit', send: credit, path: '/public/credit' },
    ];
    const cases = SERVICES.flatMap((s) => [
      { ...s, method: 'TRACE', status: 501, at: s.path },
      { ...s, method: 'PROPFIND', status: 501, at: s.path },
      { ...s, method: 'PATCH', status: 405, at: s.path },
      { ...s, method: 'TRACE', status: 501, at: '/no/such/route' },
    ]);

    test.each(cases)(
      'when $service gets $method $at, then $status JSON',
      async ({ send, method, status, at }) => {
        const reply = await send({ method, path: at });

        expectJsonClientError(reply, [status]);
        if (status === 405) expect(reply.headers.allow).toEqual(expect.stringContaining('GET'));
      },
    );

    test.each([
      { service: 'catalogue', url: () => apps.catalogue.url, path: '/api/v2/rest/products' },
      { service: 'white-label', url: () => apps.whiteLabel.url, path: `${WL}/entity` },
      { service: 'credit', url: () => apps.credit.url, path: '/public/credit' },
    ])('when $service gets a method HTTP does not know, then 400 JSON', async ({ url, path }) => {
      const reply = await rawSocketRequest(url(), 'FROBNICATE', path);

      expectJsonClientError(reply, [400]);
    });

    test.each(SERVICES)(
      'when $service has answered the faults, then it still serves',
      async ({ send, path }) => {
        const reply = await send({ method: 'GET', path });

        expect(reply.status).toBe(200);
      },
    );
  });
});
