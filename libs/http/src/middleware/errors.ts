import type { Middleware } from 'koa';
import { isDatabaseUnavailable, PoolQueueFullError } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import type { ErrorCode } from '../codes';
import { HttpError, UnavailableError } from '../errors';
import { isObject, messageOf } from '../objects';
import type { AppContext, AppState } from '../types';
import { BUSY, pauseAfterShed } from './concurrency';

/**
 * Client errors raised by Koa and its body parser (they carry a 4xx `status`), with the
 * message a client should see. The parser's own messages are not shown: they can quote
 * the body back.
 */
function clientErrorBody(err: unknown): { status: number; error: string; code: ErrorCode } | undefined {
  if (!isObject(err)) return undefined;
  const status = err.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  switch (status) {
    case 400:
      return { status: 400, error: 'Malformed JSON in request body', code: 'malformed_json' };
    case 413:
      return { status: 413, error: 'Request body too large', code: 'body_too_large' };
    case 415:
      return { status: 415, error: 'Unsupported content type', code: 'unsupported_media_type' };
    default:
      return {
        status,
        error: err.expose && typeof err.message === 'string' && err.message ? err.message : 'Bad request',
        code: status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : 'validation_failed',
      };
  }
}

const EMPTY_ANSWERS: Record<number, { error: string; code: ErrorCode }> = {
  404: { error: 'Not found', code: 'not_found' },
  405: { error: 'Method not allowed', code: 'method_not_allowed' },
  501: { error: 'Method not implemented', code: 'method_not_implemented' },
};

/**
 * True when the request's body never arrived whole because its connection is gone: the client
 * disconnected (or reset) mid-body. Whatever the body parser threw then is its consequence.
 */
function clientClosedRequest(ctx: AppContext): boolean {
  const req = ctx.req;
  return !req.complete && (req.readableAborted || req.destroyed || req.socket.destroyed);
}

/**
 * Maps every error to the JSON bodies of the design, each with its `code`: typed HttpErrors as
 * they declare (with their headers), body-parser errors to 400/413/415, database outages and
 * timeouts to 503 `unavailable` with Retry-After, unknown routes to 404,
 * and everything else to a 500 that names the request id but never the cause. Only 5xx are
 * logged with their stack.
 */
export function errorHandler(logger: Logger): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        // Answers no handler wrote: unknown routes, and the router's 405 (a method another route
        // of the path has, `Allow` set) and 501 (TRACE, PROPFIND…: no route has the method).
        const status = ctx.status;
        const error = EMPTY_ANSWERS[status];
        if (error) {
          // Set explicitly: Koa turns its own default 404 into 200 when a body is set.
          ctx.status = status;
          ctx.body = { ...error };
        }
      }
    } catch (caught) {
      if (clientClosedRequest(ctx)) {
        // Not the server's failure: the client went away mid-body (the parser's "aborted").
        // Counted as 499 by observe(), logged without a stack at debug; nobody reads the answer.
        ctx.state.clientClosed = true;
        logger.debug(
          { request_id: ctx.state.requestId, path: ctx.path, err: messageOf(caught) },
          'client closed the request before it was read',
        );
        ctx.status = 400;
        ctx.body = { error: 'The client closed the request', code: 'bad_request' };
        return;
      }
      let err = caught;
      if (err instanceof PoolQueueFullError) {
        // Shed, not failed: counted and logged as such by observe(), no warning per request
        // (under overload there are thousands); apart when it came after waiting the budget.
        ctx.state.shed = err.waited ? 'database_wait' : 'database_queue';
        pauseAfterShed(ctx);
        err = new UnavailableError(BUSY);
      } else if (!(err instanceof HttpError) && isDatabaseUnavailable(err)) {
        // An outage, a full pool or a timeout: the client may retry; the operator sees it in
        // /readyz and in this warning, without a stack per failed request.
        logger.warn({ err: messageOf(err), request_id: ctx.state.requestId }, 'database unavailable');
        err = new UnavailableError('The service is temporarily unavailable; try again shortly.');
      }
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = err.body;
        return;
      }
      const client = clientErrorBody(err);
      if (client) {
        ctx.status = client.status;
        ctx.body = { error: client.error, code: client.code };
        return;
      }
      logger.error({ err, request_id: ctx.state.requestId, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Internal server error', request_id: ctx.state.requestId, code: 'internal' };
    }
  };
}
