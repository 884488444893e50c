// Preflights on the real Redis: a browser preflights every new per-entity URL of the editor
// (3–6 per product opened), so an allowed origin's preflights have a budget of their own per
// address (the read budget), and only preflights from origins no eshop allows use the small
// anonymous one.
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import { makeEshop, serveApp, testConfig, type ServedApp } from '@catalogue/testing';
import { createApp } from '../src/app';
import { buildDeps, closeDeps, type Deps } from '../src/deps';

const ORIGIN = 'https://admin.preflight-budget.test';
const FOREIGN = 'https://nobody.preflight-budget.test';

describe('white-label-api: the preflight budget', () => {
  let deps: Deps;
  let server: ServedApp;
  let address = 0;

  beforeAll(async () => {
    deps = buildDeps(
      testConfig({
        QUEUE_PREFIX: `${testConfig().redis.queuePrefix}-preflight-${process.pid}`,
        RATE_LIMIT_READ_PER_MINUTE: '6',
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2',
        // The test client is the proxy here: its X-Forwarded-For names the client address.
        TRUSTED_PROXIES: '127.0.0.1, ::1',
      }),
    );
    server = await serveApp(createApp(deps), deps.logger);
    await makeEshop(deps.db, { origins: [ORIGIN] });
  });
  afterAll(async () => {
    await server.stop();
    await closeDeps(deps);
  });

  /** A preflight of a per-entity URL from `origin`, sent by the client address `from`. */
  const preflight = (origin: string, from: string, entity: number) =>
    fetch(`${server.url}/api/v3/white-label/content/P${entity}/type/product`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'X-Forwarded-For': from,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': `content-type,${WHITE_LABEL_TOKEN_HEADER}`,
      },
    });

  test('when an allowed origin preflights more often than the anonymous budget, then every preflight within the read budget is answered, and the anonymous budget is left whole', async () => {
    const from = `203.0.113.${++address}`;
    const statuses: number[] = [];
    for (let entity = 1; entity <= 7; entity++) statuses.push((await preflight(ORIGIN, from, entity)).status);
    expect(statuses).toEqual([204, 204, 204, 204, 204, 204, 429]);

    // The same address's preflights from an origin no eshop allows still have their 2.
    expect((await preflight(FOREIGN, from, 1)).status).toBe(403);
    expect((await preflight(FOREIGN, from, 2)).status).toBe(403);
    expect((await preflight(FOREIGN, from, 3)).status).toBe(429);
  });

  test('when an origin no eshop allows preflights, then it uses the anonymous budget of its address', async () => {
    const from = `203.0.113.${++address}`;
    const statuses: number[] = [];
    for (let entity = 1; entity <= 3; entity++)
      statuses.push((await preflight(FOREIGN, from, entity)).status);
    expect(statuses).toEqual([403, 403, 429]);
    const limited = await preflight(FOREIGN, from, 4);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/^"anonymous";q=2;w=60$/);
  });

  test('when an allowed origin is over its preflight budget, then the 429 names the preflight policy and carries the CORS headers', async () => {
    const from = `203.0.113.${++address}`;
    for (let entity = 1; entity <= 6; entity++) await preflight(ORIGIN, from, entity);
    const limited = await preflight(ORIGIN, from, 7);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/^"preflight";q=6;w=60$/);
    expect(limited.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
  });
});
