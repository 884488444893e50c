// The door's bound on the wait behind the process's own CPU (concurrencyLimit's budget): while
// the event loop is saturated, a request expected to wait longer than the budget is refused at
// once with 503 and Retry-After, counted as `event_loop`.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Router, type AppContext, type AppState } from '@catalogue/http';
import { serve, type TestServer } from './helpers';

/** Each request holds the event loop for this long (after yielding once, so many are in progress). */
const CPU_MS = 40;

function cpuRoutes() {
  const router = new Router<AppState, AppContext>();
  router.get('/cpu', async (ctx) => {
    await nextTurn();
    const until = performance.now() + CPU_MS;
    while (performance.now() < until);
    ctx.body = { ok: true };
  });
  return router;
}

const wave = (url: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(`${url}/cpu`);
      await res.arrayBuffer();
      return { status: res.status, retryAfter: res.headers.get('retry-after') };
    }),
  );

describe('admission by the wait behind a saturated event loop', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([cpuRoutes()], { waitBudgetMs: 4 * CPU_MS });
  });
  afterAll(() => server.stop());

  test('when the loop is saturated and a burst would wait past the budget, then the excess is answered 503 with Retry-After at once, and the rest is served', async () => {
    // The first wave saturates the loop: the process learns how fast it answers when it is the
    // bottleneck. The second arrives while it still is: only about the budget's worth is admitted.
    const first = wave(server.url, 12);
    const answers = (await Promise.all([first, wave(server.url, 30), wave(server.url, 30)])).flat();
    const refused = answers.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(refused.every((r) => r.retryAfter === '5')).toBe(true);
    const metrics = await server.registry.metrics();
    expect(metrics).toMatch(/http_requests_shed_total\{reason="event_loop"\} [1-9]/);
  });
});
