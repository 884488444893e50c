import { createHash, randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { idempotencyRepository, type Knex } from '@catalogue/db';
import type { Logger } from '@catalogue/logger';
import { ConflictError, HttpError } from '../errors';
import { eshopOf, type AppContext, type AppState } from '../types';

/** How long an outcome is replayed (the draft's example, and what clients are told). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * After this long without an outcome a key counts as abandoned (its process died mid-request)
 * and a retry may run it again. Longer than any request may take: statements time out after
 * 30 s and a stopping process cuts requests after 25 s.
 */
export const IDEMPOTENCY_LOCK_SECONDS = 120;
/** Printable ASCII, as a Structured Field string may hold; quotes are optional. */
const KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * Put on `ctx.state.idempotency` for a request with an Idempotency-Key. A service that creates
 * something calls `record` inside the transaction of that write, so the key's outcome commits
 * with the write or not at all: a process that dies between the commit and its answer leaves
 * the outcome behind, and the retry that takes the key over is answered the original result
 * instead of running (and charging) again.
 */
export interface IdempotencyRecorder {
  /**
   * Stores `status` and `body` as the key's outcome in `trx`. Throws 409 `idempotency_conflict`
   * (rolling the caller's transaction back) when this attempt no longer holds the key.
   */
  record(trx: Knex, status: number, body: object): Promise<void>;
}

export interface IdempotencyDeps {
  db: Knex;
  logger: Logger;
}

/** The key of `Idempotency-Key: "…"` (an sf-string) or of a bare value, as clients send both. */
function parseKey(header: string): string {
  const trimmed = header.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(trimmed);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : trimmed;
  if (!KEY.test(key)) {
    throw new HttpError(400, 'idempotency_key_invalid', {
      error: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    });
  }
  return key;
}

/** What makes two requests "the same": method, path, query and the parsed body. */
function fingerprintOf(ctx: Parameters<Middleware<AppState, AppContext>>[0]): string {
  const body = ctx.request.body ?? null;
  return createHash('sha256')
    .update(JSON.stringify([ctx.method, ctx.path, ctx.querystring, body]))
    .digest('hex');
}

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header) for a POST that creates
 * something or costs credits. Without the header the request runs as usual. With it, per eshop:
 * - the first request claims the key in a committed row of its own, then runs; a 2xx outcome is
 *   stored and replayed for 24 h to a retry with the same request (status, body, and
 *   `Idempotent-Replayed: true`); any other outcome lets the key go, since it changed nothing
 *   and a retry (after a top-up, say) should run again;
 * - the same key with another method, path or body is 422 `idempotency_key_reused`;
 * - the same key while the first request still runs is 409 `idempotency_conflict`;
 * - a key whose request died without an outcome can be taken again after
 *   IDEMPOTENCY_LOCK_SECONDS by a retry of the same request.
 */
export function idempotent(deps: IdempotencyDeps): Middleware<AppState, AppContext> {
  return async (ctx, next) => {
    const header = ctx.get('Idempotency-Key');
    if (!header) return next();
    const key = parseKey(header);
    const eshopId = eshopOf(ctx).id;
    const fingerprint = fingerprintOf(ctx);
    const lockId = randomUUID();
    const claim = {
      eshopId,
      key,
      fingerprint,
      lockId,
      lockSeconds: IDEMPOTENCY_LOCK_SECONDS,
      ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
    };

    // Claim, or read who holds the key; a holder that lets go between the two is claimed again.
    for (let attempt = 0; ; attempt += 1) {
      if (await idempotencyRepository.claim(deps.db, claim)) break;
      const held = await idempotencyRepository.find(deps.db, eshopId, key);
      if (!held) {
        if (attempt < 2) continue;
        throw new ConflictError('This Idempotency-Key is in use; retry later.', 'idempotency_conflict');
      }
      if (held.fingerprint !== fingerprint) {
        throw new HttpError(422, 'idempotency_key_reused', {
          error: 'This Idempotency-Key was used with another request; use a new key for a new request.',
        });
      }
      if (held.responseStatus === null) {
        ctx.set('Retry-After', '1');
        throw new ConflictError(
          'A request with this Idempotency-Key is still being processed; retry later.',
          'idempotency_conflict',
        );
      }
      ctx.status = held.responseStatus;
      ctx.type = held.responseContentType ?? 'application/json';
      ctx.set('Idempotent-Replayed', 'true');
      ctx.body = held.responseBody ?? '';
      return;
    }

    // Set once the handler stored the outcome in its own transaction (it may still roll back:
    // then the release below, which only deletes a key without an outcome, lets it go).
    let recorded = false;
    const recorder: IdempotencyRecorder = {
      async record(trx, status, body) {
        const held = await idempotencyRepository.complete(trx, eshopId, key, lockId, {
          status,
          body: JSON.stringify(body),
          contentType: 'application/json; charset=utf-8',
        });
        if (!held) {
          throw new ConflictError(
            'This Idempotency-Key was taken over by another request; retry to read its outcome.',
            'idempotency_conflict',
          );
        }
        recorded = true;
      },
    };
    ctx.state.idempotency = recorder;

    let stored = false;
    try {
      await next();
      const body: unknown = ctx.body;
      if (recorded) {
        stored = ctx.status >= 200 && ctx.status < 300;
      } else if (
        ctx.status >= 200 &&
        ctx.status < 300 &&
        body !== null &&
        typeof body === 'object' &&
        !Buffer.isBuffer(body)
      ) {
        await idempotencyRepository.complete(deps.db, eshopId, key, lockId, {
          status: ctx.status,
          body: JSON.stringify(body),
          contentType: 'application/json; charset=utf-8',
        });
        stored = true;
      }
    } finally {
      if (!stored) {
        // A failed release leaves the key held until IDEMPOTENCY_LOCK_SECONDS pass; the
        // request's own outcome (or error) is what the client must see.
        // An outcome the handler recorded but then failed after (its write undone after the
        // commit, e.g. a job that could not be queued) goes too: the retry should run again.
        await idempotencyRepository
          .release(deps.db, eshopId, key, lockId, { withOutcome: recorded })
          .catch((err: unknown) =>
            deps.logger.warn({ err, eshop_id: eshopId }, 'could not release an idempotency key'),
          );
      }
    }
  };
}
