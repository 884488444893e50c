import { Router, type AppContext, type AppState } from '@catalogue/http';
import { serve } from './helpers';

describe('startHttpServer().stop()', () => {
  test('when a request is in flight, then it completes and new connections are refused', async () => {
    const router = new Router<AppState, AppContext>();
    let release!: () => void;
    const started = new Promise<void>((resolveStarted) => {
      router.get('/slow', async (ctx) => {
        resolveStarted();
        await new Promise<void>((r) => (release = r));
        ctx.body = { done: true };
      });
    });
    const server = await serve([router]);

    const inFlight = fetch(`${server.url}/slow`);
    await started;
    const stopped = server.stop();
    // The server no longer accepts connections while the slow request is still running.
    await expect(fetch(`${server.url}/healthz`, { headers: { Connection: 'close' } })).rejects.toThrow();
    release();

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await expect(stopped).resolves.toBeUndefined();
  });

  test('when a request outlives the shutdown timeout, then the connection is cut and stop resolves', async () => {
    const router = new Router<AppState, AppContext>();
    router.get('/never', () => new Promise(() => undefined));
    const server = await serve([router], { shutdownTimeoutMs: 200 });
    const hanging = fetch(`${server.url}/never`).catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 50));
    await server.stop();
    // fetch rejects with a TypeError (from another realm under jest, so no instanceof check).
    expect(String(await hanging)).toMatch(/fetch failed/);
  });
});
