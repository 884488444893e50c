import { isRecord } from '@catalogue/config';
import type { HttpApp } from '@catalogue/http';
import { errorCodeProblems } from './openapi';

/**
 * Every error response the services answer anywhere in the suite is checked for a `code` by the
 * contract helper's rule (errorCodeProblems), not only the responses a test chose to validate:
 * serveApp() puts this observer in front of every app a test serves, and the jest setup file
 * (error-codes.setup.ts) fails the test file that saw an error body without one.
 */
const problems: string[] = [];
let errorResponses = 0;

function bodyOf(body: unknown, type: string): unknown {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
  const text = body.toString();
  if (!/json/.test(type)) return text;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return text;
  }
}

export function observeErrorCodes(app: HttpApp): void {
  app.middleware.unshift(async (ctx, next) => {
    try {
      await next();
    } finally {
      // The error middleware has turned every throw into a body by now; what is left is the
      // answer koa writes (streams, e.g. served files, are never error bodies here).
      if (ctx.status >= 400 && !(isRecord(ctx.body) && typeof ctx.body.pipe === 'function')) {
        errorResponses += 1;
        for (const problem of errorCodeProblems(ctx.status, bodyOf(ctx.body, ctx.response.type))) {
          problems.push(
            `${ctx.method} ${ctx.originalUrl}: ${problem}: ${JSON.stringify(ctx.body)?.slice(0, 300)}`,
          );
        }
      }
    }
  });
}

/** The error responses observed so far without a `code`, and how many error responses were seen. */
export function observedErrorCodes(): { errorResponses: number; problems: string[] } {
  return { errorResponses, problems: [...problems] };
}
