import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../types';
import { whenReadingResumes } from './concurrency';

/**
 * How much of a refused request's body is read and thrown away after its answer, so that the
 * connection can carry the client's next request (a chunked upload over the body limit, a body
 * of a type no route accepts). Past this, or past {@link DISCARD_TIMEOUT_MS}, the connection is
 * closed instead.
 */
export const DISCARD_MAX_BYTES = 64 * 1024 * 1024;
/** How long the rest of a refused body may take to arrive before the connection is closed. */
export const DISCARD_TIMEOUT_MS = 10_000;

function announcesBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** The announced length of the body (undefined when chunked). */
function announcedLength(req: IncomingMessage): number | undefined {
  if (req.headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) ? length : undefined;
}

/**
 * Keeps a keep-alive connection usable after a request is answered before its body was read to
 * the end. The body parser stops reading a body it refuses (over the limit, undecodable) and
 * leaves the request paused; Node then neither reads further nor parses the next request on that
 * connection, which hung until the keep-alive timeout. After the answer, the rest of such a body
 * is read and discarded, up to {@link DISCARD_MAX_BYTES} within {@link DISCARD_TIMEOUT_MS};
 * a body that goes past either has its connection closed. When the announced length already
 * says the rest is too large, the answer carries `Connection: close` so the client does not
 * send another request on it.
 */
export function discardUnreadBody(): Middleware<AppState, AppContext> {
  return (ctx, next) => (announcesBody(ctx.req) ? afterAnswer(ctx, next) : next());
}

/** What discardUnreadBody does around a request that announces a body (one without has none to leave). */
async function afterAnswer(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  try {
    await next();
  } finally {
    const req = ctx.req;
    if (!req.complete && !ctx.res.headersSent) {
      const length = announcedLength(req);
      if (length !== undefined && length > DISCARD_MAX_BYTES) ctx.set('Connection', 'close');
      // After a shed answer's pause (pauseAfterShed), which reading the body would end early.
      ctx.res.once('finish', () => whenReadingResumes(req.socket, () => discardRest(req)));
    }
  }
}

function discardRest(req: IncomingMessage): void {
  const socket = req.socket;
  if (req.complete || socket.destroyed) return;
  let discarded = 0;
  const close = (): void => {
    cleanup();
    socket.destroy();
  };
  const onData = (chunk: Buffer): void => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) close();
  };
  const cleanup = (): void => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', cleanup);
    req.off('close', cleanup);
  };
  const timer = setTimeout(close, DISCARD_TIMEOUT_MS);
  timer.unref();
  req.on('data', onData);
  req.once('end', cleanup);
  req.once('close', cleanup);
  req.resume();
}
