import Joi from 'joi';
import { NotFoundError, parseBody, Router, validate, type AppContext, type AppState } from '@catalogue/http';
import { serve, type TestServer } from './helpers';

function testRoutes() {
  const router = new Router<AppState, AppContext>();
  router.get('/items/:id', (ctx) => {
    ctx.body = { id: ctx.params.id };
  });
  router.get('/missing', () => {
    throw new NotFoundError('Product not found');
  });
  router.post(
    '/echo',
    parseBody('1kb'),
    validate({
      body: Joi.object<{ name: string; count?: number }, true>({
        name: Joi.string().required(),
        count: Joi.number().integer().min(1),
      }),
    }),
    (ctx) => {
      ctx.body = ctx.state.input.body;
    },
  );
  router.post('/raw', parseBody('1kb'), (ctx) => {
    // What a handler can still reach of the body's text once it is parsed.
    ctx.body = { rawBody: Reflect.get(ctx.request, 'rawBody') ?? null, parsed: ctx.request.body };
  });
  router.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  return router;
}

describe('createHttpApp', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([testRoutes()]);
  });
  afterAll(() => server.stop());

  test('when a JSON body is parsed, then its text is not kept beside it', async () => {
    const res = await fetch(`${server.url}/raw`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept once' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rawBody: null, parsed: { name: 'kept once' } });
  });

  test('when a route does not exist, then 404 with a JSON error', async () => {
    const res = await fetch(`${server.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  test('when a route exists for another method, then 405 with a JSON error', async () => {
    const res = await fetch(`${server.url}/echo`);
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
  });

  test('when a handler throws a typed error, then its status and body are sent', async () => {
    const res = await fetch(`${server.url}/missing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Product not found', code: 'not_found' });
  });

  test('when the body is not valid JSON, then 400 without echoing the body', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name": <script>',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Malformed JSON in request body', code: 'malformed_json' });
  });

  test('when the body is larger than the limit, then 413', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(5_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'Request body too large', code: 'body_too_large' });
  });

  test('when the input breaks the schema, then 422 lists every field problem', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ count: 0 }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; errors: Record<string, string[]> };
    expect(body.error).toBe('The given data was invalid.');
    expect(Object.keys(body.errors).sort()).toEqual(['count', 'name']);
    expect(body.errors.name).toEqual(['The name field is required.']);
  });

  test('when the input is valid, then the handler sees the converted values', async () => {
    const res = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'a', count: '3' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'a', count: 3 });
  });

  test('when a handler fails unexpectedly, then 500 names the request id and nothing else', async () => {
    const res = await fetch(`${server.url}/boom`);
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      error: 'Internal server error',
      request_id: res.headers.get('x-request-id'),
      code: 'internal',
    });
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });

  test('when the caller sends X-Request-Id, then it is echoed; otherwise a UUID is made', async () => {
    const given = await fetch(`${server.url}/items/1`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await fetch(`${server.url}/items/1`, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('when requests were served, then /metrics labels them by route template, never the raw path', async () => {
    await fetch(`${server.url}/items/42`);
    await fetch(`${server.url}/items/43`);
    await fetch(`${server.url}/no/such/path/1234`);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/items\/:id",status="200"\} [2-9]/,
    );
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).not.toContain('/items/42');
    expect(text).not.toContain('1234');
  });

  test('when /healthz is asked, then it answers without checking dependencies', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
