import type { Middleware } from 'koa';
import type { Logger } from '@catalogue/logger';
import { HttpError } from '../errors';
import type { AppContext, AppState } from '../types';

interface StatusError {
  status?: unknown;
  expose?: boolean;
  message?: string;
}

/**
 * Client errors raised by Koa and its body parser (they carry a 4xx `status`), with the
 * message a client should see. The parser's own messages are not shown: they can quote
 * the body back.
 */
function clientErrorBody(err: StatusError): { status: number; error: string } | undefined {
  if (typeof err.status !== 'number' || err.status < 400 || err.status >= 500) return undefined;
  switch (err.status) {
    case 400:
      return { status: 400, error: 'Malformed JSON in request body' };
    case 413:
      return { status: 413, error: 'Request body too large' };
    case 415:
      return { status: 415, error: 'Unsupported content type' };
    default:
      return { status: err.status, error: err.expose && err.message ? err.message : 'Bad request' };
  }
}

const EMPTY_ANSWERS: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
  501: 'Method not implemented',
};

/**
 * Maps every error to the JSON bodies of the design: typed HttpErrors as they declare,
 * body-parser errors to 400/413, unknown routes to 404, and everything else to a 500
 * that names the request id but never the cause. Only 5xx are logged with their stack.
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
          ctx.body = { error };
        }
      }
    } catch (err) {
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = err.body;
        return;
      }
      const client = clientErrorBody(err as StatusError);
      if (client) {
        ctx.status = client.status;
        ctx.body = { error: client.error };
        return;
      }
      logger.error({ err, request_id: ctx.state.requestId, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: 'Internal server error', request_id: ctx.state.requestId };
    }
  };
}
