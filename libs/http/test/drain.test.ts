import { Agent, get, type IncomingMessage } from 'node:http';
import { Router, createHttpApp, startHttpServer, type AppContext, type AppState } from '@catalogue/http';
import { createLogger } from '@catalogue/logger';
import { Registry } from 'prom-client';

function fetchOn(agent: Agent, url: string): Promise<{ res: IncomingMessage; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve({ res, reused: req.reusedSocket }));
    });
    req.once('error', reject);
  });
}

describe('HTTP server drain (stop)', () => {
  test('when stopped, then during the pre-stop delay an idle keep-alive connection still serves, answering with Connection: close', async () => {
    const logger = createLogger({ service: 'test', level: 'silent' });
    const router = new Router<AppState, AppContext>();
    router.get('/ping', (ctx) => {
      ctx.body = { ok: true };
    });
    const app = createHttpApp({ logger, registry: new Registry(), readiness: [], routers: [router] });
    const server = await startHttpServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      shutdownTimeoutMs: 5_000,
      shutdownDelayMs: 500,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = `http://127.0.0.1:${server.port}/ping`;
    try {
      // Opens the keep-alive connection (its header is not asserted: a nock interceptor left in
      // the jest worker by another file may rewrite it).
      expect((await fetchOn(agent, url)).res.statusCode).toBe(200);

      const stopped = server.stop();
      // The connection idle when the drain began is used again, not reset.
      const during = await fetchOn(agent, url);
      expect(during.res.statusCode).toBe(200);
      expect(during.reused).toBe(true);
      expect(during.res.headers.connection).toBe('close');
      await stopped;
    } finally {
      agent.destroy();
    }
  });
});
