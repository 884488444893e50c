// The rendered Ingress objects, acted out: a small reverse proxy routes by their rules (host,
// Prefix paths) to the real catalogue-api and white-label-api, and refuses bodies above the
// proxy-body-size annotation with ingress-nginx's HTML 413 (its default is 1m when the
// annotation is absent). What a browser and an eshop's importer ask must then pass: the
// editor bundle, design previews, the price list and the API through the white-label host,
// a 5 MB import through the catalogue host; the probes and /metrics must not. Chromium then
// opens an eshop admin's page that embeds the editor from the white-label host (host names
// mapped to the proxy): the bundle, the API, design previews and /public/credit all come
// through the rendered Ingress paths, and the editor fills a design and shows the price list;
// and a 5 MB import sent by the browser from the catalogue host's /docs page passes the Ingress.
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Response } from 'playwright-core';
import { demoHostPage } from '@catalogue/admin';
import { launchBrowser, makeEshop, serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../../services/catalogue-api/src/service';
import { LIMITS } from '../../services/catalogue-api/src/schemas/items.contract';
import { whiteLabelApi } from '../../services/white-label-api/src/service';
import { renderChart, type K8sObject } from './chart';

const SETUP_TIMEOUT_MS = 120_000;
const CATALOGUE_HOST = 'catalogue.example.test';
const EDITOR_HOST = 'editor.example.test';

// A queue prefix of its own: no worker of another test file renders these 5 MB of products.
const catalogue = serveServiceForTests(catalogueApi, {
  QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-ingress-proxy`,
});
const whiteLabel = serveServiceForTests(whiteLabelApi);

interface Route {
  host: string;
  path: string;
  service: string;
  bodySize?: string;
}

/** The routes of the rendered Ingress objects, longest path first (as controllers match). */
function routesOf(objects: K8sObject[]): Route[] {
  return objects
    .filter((o) => o.kind === 'Ingress')
    .flatMap((ingress) => {
      const spec = ingress.spec as {
        rules: Array<{
          host: string;
          http: { paths: Array<{ path: string; pathType: string; backend: { service: { name: string } } }> };
        }>;
      };
      return spec.rules.flatMap((rule) =>
        rule.http.paths.map((p) => {
          expect(p.pathType).toBe('Prefix');
          return {
            host: rule.host,
            path: p.path,
            service: p.backend.service.name,
            bodySize: ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'],
          };
        }),
      );
    })
    .sort((a, b) => b.path.length - a.path.length);
}

/** ingress-nginx sizes: 1m, 512k, 100 (bytes). */
function bytes(size: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(size);
  if (!m) throw new Error(`bad size ${size}`);
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase()] ?? 1);
}

/** A proxy acting out `routes`, sending each Service name to the given base URL. */
function startProxy(routes: Route[], upstreams: Record<string, () => string>): Promise<Server> {
  const server = createServer((req: IncomingMessage, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = routes.find((r) => r.host === host && (path === r.path || path.startsWith(`${r.path}/`)));
    if (!route) {
      res
        .writeHead(404, { 'content-type': 'text/html', 'x-proxy': 'no-route' })
        .end('<h1>404 Not Found</h1>');
      req.resume();
      return;
    }
    const limit = bytes(route.bodySize ?? '1m');
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      // Answered once the body is read and dropped: answering and closing first raced the
      // sender, which could meet a closed socket (EPIPE) before it read the 413.
      req.resume();
      req.on('end', () =>
        res
          .writeHead(413, { 'content-type': 'text/html', 'x-proxy': 'too-large', connection: 'close' })
          .end('<h1>413 Request Entity Too Large</h1>'),
      );
      return;
    }
    const upstream = new URL(upstreams[route.service]!());
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const INGRESS_ON = [
  '--set', 'catalogueApi.ingress.enabled=true',
  '--set', `catalogueApi.ingress.hosts[0].host=${CATALOGUE_HOST}`,
  '--set', 'whiteLabelApi.ingress.enabled=true',
  '--set', `whiteLabelApi.ingress.hosts[0].host=${EDITOR_HOST}`,
]; // prettier-ignore

let routes: Route[];
let proxy: Server;
let proxyUrl: string;
beforeAll(async () => {
  routes = routesOf(await renderChart(INGRESS_ON));
  proxy = await startProxy(routes, {
    'shop-catalogue-content-catalogue-api': () => catalogue.url,
    'shop-catalogue-content-white-label-api': () => whiteLabel.url,
  });
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, SETUP_TIMEOUT_MS);
afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through a proxy with the Host header a browser would send (fetch drops it). */
function send(
  base: string,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const length =
      options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path,
        headers: { host, ...options.headers, ...length },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
const get = (host: string, path: string): Promise<Answer> => send(proxyUrl, host, path);

describe('through the white-label Ingress, what the embedded editor loads', () => {
  test('when the browser loads the editor bundle, then white-label-api serves the module', async () => {
    const res = await get(EDITOR_HOST, '/editor/v1/ccs-editor.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toContain('ccs-editor');
  });

  test('when the generate panel loads the price list, then it is answered from the same host', async () => {
    const res = await get(EDITOR_HOST, '/public/credit');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ data: expect.anything() });
  });

  test('when a design preview, the stylesheet and the API are asked, then the service answers (not the Ingress)', async () => {
    for (const path of [
      `/design-preview/v1/1/${'0'.repeat(64)}.svg`,
      '/content/v1/ccs-content.css',
      '/api/v3/white-label/check-license',
      '/docs/openapi.yaml',
    ]) {
      const res = await get(EDITOR_HOST, path);
      expect([path, res.headers['x-proxy']]).toEqual([path, undefined]);
    }
  });

  test('when the probes or /metrics are asked from outside, then the Ingress has no route', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const res = await get(EDITOR_HOST, path);
      expect([path, res.status, res.headers['x-proxy']]).toEqual([path, 404, 'no-route']);
    }
  });
});

describe('through the catalogue Ingress, a large import', () => {
  const text = (length: number): string => 'x'.repeat(length);
  /** 25 products with every text field at its limit: a little over 5 MB of JSON. */
  const batch = () =>
    JSON.stringify(
      Array.from({ length: 25 }, (_, i) => ({
        id: `BIG-${i}`,
        name: { default: text(LIMITS.name) },
        seo_title: { default: text(LIMITS.seo_title) },
        seo_description: { default: text(LIMITS.seo_description) },
        short_description: { default: text(LIMITS.short_description) },
        description: { default: `<p>${text(LIMITS.description - 7)}</p>` },
      })),
    );

  test('when a 5 MB batch is imported through the Ingress, then it passes and every item is stored', async () => {
    const { eshop, apiToken } = await makeEshop(catalogue.deps.db);
    const body = batch();
    expect(body.length).toBeGreaterThan(5 * 1024 * 1024);

    const res = await send(proxyUrl, CATALOGUE_HOST, '/api/v2/rest/products', {
      method: 'POST',
      headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json' },
      body,
    });

    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ success: true, imported: 25 });
    const stored = await catalogue.deps
      .db('products')
      .where({ eshop_id: eshop.id })
      .count<{ n: number }[]>({ n: '*' });
    expect(Number(stored[0]!.n)).toBe(25);
  });

  test('when the Ingress had no body-size annotation (ingress-nginx default 1m), then the same batch would be refused at the edge', async () => {
    const withoutAnnotation = routes.map((r) => ({ ...r, bodySize: undefined }));
    const bare = await startProxy(withoutAnnotation, {
      'shop-catalogue-content-catalogue-api': () => catalogue.url,
      'shop-catalogue-content-white-label-api': () => whiteLabel.url,
    });
    try {
      const base = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
      const res = await send(base, CATALOGUE_HOST, '/api/v2/rest/products', {
        method: 'POST',
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: batch(),
      });
      expect([res.status, res.headers['x-proxy']]).toEqual([413, 'too-large']);
    } finally {
      await new Promise<void>((resolve) => bare.close(() => resolve()));
    }
  });
});

describe('Chromium through the Ingress: an eshop admin page embedding the editor from the white-label host', () => {
  const ADMIN_HOST = 'admin.shop.example.test';
  let browser: Browser;
  let adminPages: Server;
  let token = '';

  beforeAll(async () => {
    // The eshop's own admin page (another origin): the demo host page, loading everything
    // from the white-label host, as an eshop embeds the editor.
    adminPages = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        demoHostPage({
          port: 80,
          apiBase: `http://${EDITOR_HOST}`,
          whiteLabelToken: token,
          entityId: 'ING-1',
        }),
      );
    });
    await new Promise<void>((resolve) => adminPages.listen(0, '127.0.0.1', resolve));
    const proxyPort = (proxy.address() as AddressInfo).port;
    const adminPort = (adminPages.address() as AddressInfo).port;
    // The Ingress hosts resolve to the proxy (port 80 of the URL to the proxy's port), as DNS
    // would point them at the controller; the Host header stays the Ingress host.
    browser = await launchBrowser([
      `--host-resolver-rules=MAP ${EDITOR_HOST}:80 127.0.0.1:${proxyPort}, MAP ${CATALOGUE_HOST}:80 127.0.0.1:${proxyPort}, MAP ${ADMIN_HOST}:80 127.0.0.1:${adminPort}`,
    ]);
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => adminPages?.close(() => resolve()));
  });

  test(
    'when the page opens the editor, then bundle, API, design previews and the price list come through the Ingress and the editor fills a design',
    async () => {
      const shop = await makeEshop(whiteLabel.deps.db, {
        origins: [`http://${ADMIN_HOST}`],
        languages: ['default', 'cs', 'en'],
        credits: 500,
      });
      token = shop.whiteLabelToken;
      const context = await browser.newContext();
      const page = await context.newPage();
      const answers: Array<{ url: string; status: number; proxy: string | undefined }> = [];
      page.on('response', (r: Response) =>
        answers.push({ url: r.url(), status: r.status(), proxy: r.headers()['x-proxy'] }),
      );
      try {
        await page.goto(`http://${ADMIN_HOST}/`);
        await page.waitForFunction(`window.ccsEvents.some((e) => e.name === 'ccs-ready')`);

        const editor = page.locator('ccs-editor');
        await editor.getByRole('button', { name: 'Designs' }).click();
        await editor.getByRole('button', { name: 'Use this design' }).first().click();
        await editor.locator('ccs-designs-panel input').first().fill('Through the Ingress');
        await editor.getByRole('button', { name: 'Fill the design' }).click();
        await page.waitForFunction(
          `document.querySelector('ccs-editor').shadowRoot.querySelectorAll('li.widget').length > 0`,
        );
        // The generate panel prices the job from /public/credit of the same host.
        await editor.getByRole('button', { name: 'Generate content' }).click();
        await editor
          .locator('.estimate', { hasText: /Estimated cost: \d+ credits\. Remaining: 500 credits\./ })
          .waitFor();

        const errors = (await page.evaluate(
          `window.ccsEvents.filter((e) => e.name === 'ccs-error')`,
        )) as unknown[];
        expect(errors).toEqual([]);
        const fromEditorHost = answers.filter((a) => new URL(a.url).host === EDITOR_HOST);
        const paths = fromEditorHost.map((a) => new URL(a.url).pathname);
        expect(paths).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^\/editor\/v1\/.+\.js$/),
            '/public/credit',
            expect.stringMatching(/^\/design-preview\/v1\//),
            expect.stringMatching(/^\/api\/v3\/white-label\//),
          ]),
        );
        // Nothing the editor asked was refused by the Ingress (no route, body too large) or failed
        // (a 404 of the service is an answer: no content yet, no running job).
        expect(fromEditorHost.filter((a) => a.proxy !== undefined || a.status >= 500)).toEqual([]);
        const content = await send(proxyUrl, EDITOR_HOST, '/api/v3/white-label/content/ING-1/type/product', {
          headers: { 'service-white-label-token': shop.whiteLabelToken, origin: `http://${ADMIN_HOST}` },
        });
        expect(content.status).toBe(200);
        expect((JSON.parse(content.body) as unknown[]).length).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    },
    SETUP_TIMEOUT_MS,
  );

  test(
    'when the browser sends a 5 MB import from the catalogue host (its /docs page, same origin), then it passes the Ingress and every item is stored',
    async () => {
      const { eshop, apiToken } = await makeEshop(catalogue.deps.db);
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        const docs = await page.goto(`http://${CATALOGUE_HOST}/docs`);
        expect(docs?.status()).toBe(200);
        const limits = JSON.stringify({ ...LIMITS, description: LIMITS.description - 7 });
        const answer = (await page.evaluate(`(async () => {
          const L = ${limits};
          const x = (n) => 'x'.repeat(n);
          const body = JSON.stringify(Array.from({ length: 25 }, (_, i) => ({
            id: 'WEB-' + i,
            name: { default: x(L.name) },
            seo_title: { default: x(L.seo_title) },
            seo_description: { default: x(L.seo_description) },
            short_description: { default: x(L.short_description) },
            description: { default: '<p>' + x(L.description) + '</p>' },
          })));
          const res = await fetch('/api/v2/rest/products', {
            method: 'POST',
            headers: { authorization: 'Bearer ${apiToken}', 'content-type': 'application/json' },
            body,
          });
          return { size: body.length, status: res.status, body: await res.text() };
        })()`)) as { size: number; status: number; body: string };
        expect(answer.size).toBeGreaterThan(5 * 1024 * 1024);
        expect([answer.status, JSON.parse(answer.body)]).toEqual([
          200,
          expect.objectContaining({ success: true, imported: 25 }),
        ]);
        const stored = await catalogue.deps
          .db('products')
          .where({ eshop_id: eshop.id })
          .count<{ n: number }[]>({ n: '*' });
        expect(Number(stored[0]!.n)).toBe(25);
      } finally {
        await context.close();
      }
    },
    SETUP_TIMEOUT_MS,
  );
});
