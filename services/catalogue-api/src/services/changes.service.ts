import { eventsRepository, type Knex, type StoredEvent } from '@catalogue/db';
import { BadRequestError, GoneError } from '@catalogue/http';
import type { Deps } from '../deps';
import type { ChangesQuery } from '../schemas/list.schema';

export interface ChangeEvent {
  id: number;
  type: StoredEvent['type'];
  entity_type: string;
  external_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export interface ChangesPage {
  data: ChangeEvent[];
  next_cursor: string;
  has_more: boolean;
}

/** A cursor names the number of the last event a client has: base64url of its decimal digits. */
export function encodeCursor(seq: number): string {
  return Buffer.from(String(seq), 'utf8').toString('base64url');
}

/**
 * The event number a cursor names; anything this service did not hand out is refused (Node's
 * base64url decoder skips characters it does not know, so the cursor must encode back to
 * itself). No cursor, or an empty one, is the start: every event.
 */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const digits = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const seq = /^(0|[1-9][0-9]{0,15})$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isSafeInteger(seq) || encodeCursor(seq) !== cursor) {
    throw new BadRequestError(
      'The after cursor is not one this service returned; use a next_cursor, or omit it to start.',
      'cursor_invalid',
    );
  }
  return seq;
}

/**
 * One page of the eshop's change feed: its events after the cursor, in the order they were
 * committed. `next_cursor` names the last event returned (or the same place when there is none
 * yet), so a client that stores it and asks again sees every later change exactly once. A cursor
 * whose next events were deleted (older than the retention) is 410 `cursor_expired`.
 *
 * A replica serves the page only when it has replayed the eshop's newest event (`deps.reads`), so
 * the page is the primary's, never one that stops short of events the client may know of. Even
 * a replica further behind could not skip one: numbers follow commit order, so any snapshot
 * holds the eshop's events 1…N without a gap (docs/decisions/0049-reads-from-a-replica.md, "Reads from a replica").
 */
export async function listChanges(
  deps: Pick<Deps, 'reads' | 'config'>,
  eshopId: number,
  query: ChangesQuery,
): Promise<ChangesPage> {
  const after = decodeCursor(query.after);
  return deps.reads.run(eshopId, (db) =>
    changesPage(db, eshopId, query, after, deps.config.events.retentionDays),
  );
}

async function changesPage(
  db: Knex,
  eshopId: number,
  query: ChangesQuery,
  after: number,
  retentionDays: number,
): Promise<ChangesPage> {
  // One more than asked tells whether another page follows.
  const events = await eventsRepository.listAfter(db, eshopId, after, query.limit + 1);
  // A cursor behind the oldest event kept has lost events the sweeper deleted: the client must
  // know, not page on as if nothing had happened. (No cursor is the start: whatever is kept.)
  if (query.after && events[0]?.seq !== after + 1) {
    const { oldest, newest } = await eventsRepository.bounds(db, eshopId);
    if ((oldest ?? newest + 1) > after + 1 && newest > after) {
      throw new GoneError(
        `Events after this cursor are older than the ${retentionDays} days the feed keeps and were deleted. ` +
          'Read the lists again (v2 last_update_time_from), then the feed without a cursor.',
        'cursor_expired',
      );
    }
  }
  const page = events.slice(0, query.limit);
  return {
    data: page.map((e) => ({
      id: e.seq,
      type: e.type,
      entity_type: e.entityType,
      external_id: e.externalId,
      occurred_at: e.occurredAt,
      data: e.data,
    })),
    next_cursor: encodeCursor(page.at(-1)?.seq ?? after),
    has_more: events.length > query.limit,
  };
}
