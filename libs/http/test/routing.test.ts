import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { Router, type AppContext, type AppRouter, type AppState } from '@catalogue/http';
import { errorHandler } from '../src/middleware/errors';
import { mayStartWith, mountRouters, routePrefixes } from '../src/routing';

/** Routers shaped like the services': no prefix, per-route middleware, a prefix with `use`, `use` without a prefix. */
function routers(): AppRouter[] {
  const health = new Router<AppState, AppContext>();
  health.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  const docs = new Router<AppState, AppContext>();
  const secured = (ctx: AppContext, next: () => Promise<unknown>) => {
    ctx.set('X-Docs', '1');
    return next();
  };
  docs.get('/docs', secured, (ctx) => {
    ctx.body = 'page';
  });
  docs.get('/docs/assets/:file', secured, (ctx) => {
    ctx.body = { file: ctx.params.file };
  });
  const v1 = new Router<AppState, AppContext>({ prefix: '/api/v1' });
  v1.use((ctx, next) => {
    ctx.set('X-V1', '1');
    return next();
  });
  v1.get('/items/:id', (ctx) => {
    ctx.body = { id: ctx.params.id };
  });
  v1.post('/items', (ctx) => {
    ctx.status = 201;
    ctx.body = { created: true };
  });
  v1.delete('/items/:id', (ctx) => {
    ctx.status = 404; // a route that answers 404 itself
    ctx.body = { error: 'gone', code: 'not_found' };
  });
  const whoami = new Router<AppState, AppContext>();
  whoami.use((ctx, next) => {
    ctx.set('X-Auth', '1');
    return next();
  });
  whoami.get('/api/v2/rest/whoami', (ctx) => {
    ctx.body = { data: { eshop_id: 1 } };
  });
  // The same path on two routers, other methods: 405's Allow is their union.
  const shared = new Router<AppState, AppContext>();
  shared.put('/api/v2/rest/whoami', (ctx) => {
    ctx.body = { put: true };
  });
  return [health, docs, v1, whoami, shared];
}

async function listen(mount: (app: Koa<AppState, AppContext>) => void): Promise<Server> {
  const app = new Koa<AppState, AppContext>();
  app.silent = true;
  app.use(errorHandler(pino({ level: 'silent' })));
  mount(app);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return server;
}

function ask(server: Server, method: string, path: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const h = res.headers;
        resolve(
          `${res.statusCode} allow=${h.allow} docs=${h['x-docs']} v1=${h['x-v1']} auth=${h['x-auth']} ${body}`,
        );
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('mountRouters', () => {
  let reference: Server;
  let mounted: Server;
  beforeAll(async () => {
    // What createHttpApp did before: each router's routes() then its allowedMethods().
    reference = await listen((app) => {
      for (const router of routers()) {
        app.use(router.routes());
        app.use(router.allowedMethods());
      }
    });
    mounted = await listen((app) => mountRouters(app, routers()));
  });
  afterAll(async () => {
    await Promise.all([reference, mounted].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'];
  const paths = [
    '/healthz',
    '/HEALTHZ',
    '/healthz/',
    '/docs',
    '/Docs/',
    '/docs/assets/init.js',
    '/docs/assets',
    '/%64ocs',
    '/api/v1/items/7',
    '/API/V1/ITEMS/7',
    '/api/v1/items',
    '/api/v1',
    '/api/v1/other',
    '/api/v2/rest/whoami',
    '/api/v2/REST/whoami/',
    '/api/v2/rest/whoami?x=1',
    '/nowhere',
    '/',
  ];
  test.each(paths)(
    'when %s is asked with every method, then the answers are the per-router wiring’s',
    async (path) => {
      for (const method of methods) {
        expect(`${method} ${await ask(mounted, method, path)}`).toBe(
          `${method} ${await ask(reference, method, path)}`,
        );
      }
    },
  );

  test('when routers implement different methods, then each keeps its own allowedMethods() as before', async () => {
    const withNarrow = (): AppRouter[] => {
      const narrow = new Router<AppState, AppContext>({ methods: ['GET'] });
      narrow.get('/only-get', (ctx) => {
        ctx.body = 'ok';
      });
      return [...routers(), narrow];
    };
    const before = await listen((app) => {
      for (const router of withNarrow()) {
        app.use(router.routes());
        app.use(router.allowedMethods());
      }
    });
    const after = await listen((app) => mountRouters(app, withNarrow()));
    try {
      for (const [method, path] of [
        ['POST', '/only-get'],
        ['GET', '/only-get'],
        ['POST', '/api/v1/items/7'],
        ['PUT', '/nowhere'],
      ] as const) {
        expect(await ask(after, method, path)).toBe(await ask(before, method, path));
      }
    } finally {
      await Promise.all([before, after].map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });

  test('when a router gains a route after being mounted, then the route answers', async () => {
    const late = new Router<AppState, AppContext>();
    late.get('/early', (ctx) => {
      ctx.body = 'early';
    });
    const server = await listen((app) => mountRouters(app, [...routers(), late]));
    try {
      expect(await ask(server, 'GET', '/early')).toMatch(/^200 /);
      late.get('/late', (ctx) => {
        ctx.body = 'late';
      });
      expect(await ask(server, 'GET', '/late')).toMatch(/^200 .* late$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a router's remembered match", () => {
  test('when the same path is asked again and later routers add their layers to ctx.matched, then each request sees the layers once', async () => {
    const [, , , whoami, shared] = routers();
    const seen: number[] = [];
    const server = await listen((app) => {
      mountRouters(app, [whoami!, shared!]);
      // Reached when no route has the method: what the routers left in ctx.matched.
      app.use((ctx) => {
        seen.push((ctx as { matched?: unknown[] }).matched?.length ?? -1);
      });
    });
    try {
      for (let i = 0; i < 3; i += 1) await ask(server, 'POST', '/api/v2/rest/whoami');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }

    // whoami's middleware and GET layers, shared's PUT layer: three, every time.
    expect(seen).toEqual([3, 3, 3]);
  });
});

describe("a matched route's chain, composed once", () => {
  let server: Server;
  let v1: AppRouter;
  beforeAll(async () => {
    v1 = routers()[2]!;
    server = await listen((app) => mountRouters(app, [v1]));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('when the same routes are asked again with other ids, then each answer has its own params and middleware', async () => {
    const answers: string[] = [];
    for (const id of ['7', '8', '7', '8']) answers.push(await ask(server, 'GET', `/api/v1/items/${id}`));

    expect(answers).toEqual(
      ['7', '8', '7', '8'].map(
        (id) => `200 allow=undefined docs=undefined v1=1 auth=undefined {"id":"${id}"}`,
      ),
    );
  });

  test('when a param handler is added after requests were answered, then the next request runs it', async () => {
    expect(await ask(server, 'GET', '/api/v1/items/9')).toMatch(/^200 .*"id":"9"/);

    v1.param('id', (id, ctx) => {
      ctx.status = 418;
      ctx.body = { param: id };
    });

    expect(await ask(server, 'GET', '/api/v1/items/9')).toMatch(/^418 .*\{"param":"9"\}$/);
  });
});

describe('routePrefixes and mayStartWith', () => {
  test('when a router has literal routes, parameters or a prefix, then its prefixes are their literal starts in lower case', () => {
    const [health, docs, v1, whoami] = routers();
    expect(routePrefixes(health!)).toEqual(['/healthz']);
    expect(routePrefixes(docs!)).toEqual(['/docs', '/docs/assets/']);
    expect(routePrefixes(v1!)).toEqual(['/api/v1/items/', '/api/v1/items', '/api/v1/items/']);
    expect(routePrefixes(whoami!)).toEqual(['/api/v2/rest/whoami']);
  });

  test('when a router has a RegExp route or is case-sensitive, then it is always asked', () => {
    const regexp = new Router<AppState, AppContext>();
    regexp.get(/^\/x/, () => undefined);
    expect(routePrefixes(regexp)).toBeUndefined();
    expect(routePrefixes(new Router<AppState, AppContext>({ sensitive: true }))).toBeUndefined();
  });

  test('when a path is compared, then ASCII case is ignored and non-ASCII is left to the router', () => {
    expect(mayStartWith('/API/v2/x', '/api/v2')).toBe(true);
    expect(mayStartWith('/api/v3', '/api/v2')).toBe(false);
    expect(mayStartWith('/api', '/api/v2')).toBe(false);
    expect(mayStartWith('/\u212Aa', '/ka')).toBe(true);
    expect(mayStartWith('/[pi', '/{pi')).toBe(false);
  });
});
