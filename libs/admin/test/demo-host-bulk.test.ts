// The demo host page's bulk form goes through the page's own server, which calls the catalogue
// API with the eshop's API token: the token is never in the page, and only the page's own script
// (a JSON body, which another origin cannot send without a preflight) can make it call.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { demoHostHandler } from '../src/demo-host';

const TOKEN = 'api_secret-of-the-demo-eshop';

interface Seen {
  auth: string | undefined;
  body: unknown;
}

let catalogue: Server;
let host: Server;
let hostUrl = '';
const seen: Seen[] = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text);
}

beforeAll(async () => {
  // A stand-in catalogue API: answers a dry run and a start as the real one does.
  catalogue = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      seen.push({ auth: req.headers.authorization, body });
      const dry = (body as { dry_run?: boolean }).dry_run;
      res.writeHead(dry ? 200 : 201, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify(
          dry
            ? { dry_run: true, items: 4, estimate: { credits: 24, per_item: 6 }, within_budget: true }
            : { id: 9, status: 'queued' },
        ),
      );
    });
  });
  const catalogueUrl = await listen(catalogue);
  host = createServer(
    demoHostHandler({
      port: 0,
      apiBase: 'http://127.0.0.1:1',
      whiteLabelToken: 'wl_demo',
      bulk: { catalogueApi: catalogueUrl, apiToken: TOKEN, languages: ['cs', 'en'] },
    }),
  );
  hostUrl = await listen(host);
});
afterAll(async () => {
  await new Promise((r) => host.close(r));
  await new Promise((r) => catalogue.close(r));
});
beforeEach(() => {
  seen.length = 0;
});

describe('the demo host page with the bulk form', () => {
  test('when the page is read, then it has the form and the panel, and not the API token', async () => {
    const page = await (await fetch(`${hostUrl}/`)).text();
    expect(page).toContain('Generate for the whole catalogue');
    expect(page).toContain('<ccs-batch-progress api-base="http://127.0.0.1:1" token="wl_demo"');
    expect(page).not.toContain(TOKEN);
  });

  test('when the page asks for an estimate and a start, then its server asks the catalogue API with the token and passes the answers on', async () => {
    const ask = (path: string) =>
      fetch(`${hostUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ languages: ['cs'], budget: 50, without_content: true }),
      });
    const estimate = await ask('/bulk/estimate');
    expect(estimate.status).toBe(200);
    expect(await estimate.json()).toMatchObject({ items: 4, within_budget: true });
    const start = await ask('/bulk/start');
    expect(start.status).toBe(201);
    expect(await start.json()).toEqual({ id: 9, status: 'queued' });
    expect(seen).toEqual([
      {
        auth: `Bearer ${TOKEN}`,
        body: {
          entity_type: 'product',
          filter: { without_content: true },
          languages: ['cs'],
          budget: 50,
          dry_run: true,
        },
      },
      {
        auth: `Bearer ${TOKEN}`,
        body: { entity_type: 'product', filter: { without_content: true }, languages: ['cs'], budget: 50 },
      },
    ]);
  });

  test('when another page posts a plain form to the start, then it is refused and nothing is asked of the catalogue API', async () => {
    // What a cross-origin <form method=post> or a no-cors fetch can send without a preflight.
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await fetch(`${hostUrl}/bulk/start`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body: '{"languages":["cs"],"budget":50}',
      });
      expect({ type, status: res.status }).toEqual({ type, status: 415 });
    }
    expect(seen).toEqual([]);
  });

  test('when the body is not JSON or too large, then it is refused with a JSON error', async () => {
    const post = (body: string) =>
      fetch(`${hostUrl}/bulk/estimate`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
    const bad = await post('{');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_json' });
    const large = await post(JSON.stringify({ languages: ['cs'], budget: 1, pad: 'x'.repeat(5_000) }));
    expect(large.status).toBe(413);
    expect(seen).toEqual([]);
  });
});
