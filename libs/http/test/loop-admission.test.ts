// The door's bound on the wait behind the process's own CPU (concurrencyLimit's budget): while
// the event loop is saturated and even the quickest recent answer spent longer than the budget in
// the process, a new request is refused at once with 503 and Retry-After, counted as
// `event_loop`; a burst that arrives at once on an idle process is served whole.
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

const wave = (url: string, n: number, onAnswer: () => void = () => undefined) =>
  Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(`${url}/cpu`);
      await res.arrayBuffer();
      onAnswer();
      return { status: res.status, retryAfter: res.headers.get('retry-after') };
    }),
  );

describe('admission by the wait behind a saturated event loop', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve([cpuRoutes()], { waitBudgetMs: 4 * CPU_MS });
  });
  afterAll(() => server.stop());

  test('when a burst arrives on an idle process, then it is served; when more arrive while the queue behind the loop stands past the budget, then they are answered 503 with Retry-After at once', async () => {
    // 24 requests of 40 ms each: the first answers are quick, the last ones spent ~1 s in the
    // process, far past the budget (160 ms). The second wave arrives after the 16th answer,
    // when the quickest recent answer took longer than the budget.
    let answered = 0;
    let second: Promise<Array<{ status: number; retryAfter: string | null }>> | undefined;
    let secondStarted!: () => void;
    const started = new Promise<void>((resolve) => (secondStarted = resolve));
    const first = await wave(server.url, 24, () => {
      answered += 1;
      if (answered === 16) {
        second = wave(server.url, 20);
        secondStarted();
      }
    });
    await started;
    expect(first.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(16);
    const later = await second!;
    const refused = later.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.retryAfter === '5')).toBe(true);
    const metrics = await server.registry.metrics();
    expect(metrics).toMatch(/http_requests_shed_total\{reason="event_loop"\} [1-9]/);
  });
});
