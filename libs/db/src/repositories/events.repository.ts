import type { Knex } from 'knex';
import { isoMicros } from '../timestamps';

/** What happened (the `events_type_known` check of the table lists the same). */
export const EVENT_TYPES = [
  'item.created',
  'item.updated',
  'item.deleted',
  'item.content_ready',
  'generation.succeeded',
  'generation.failed',
  'listing.batch_finished',
  'credits.low',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event to append: what happened to which entity, and a little data (never the content). */
export interface NewEvent {
  type: EventType;
  /** `product`, `category`, `brand`, `blog`, `parameter`; generation jobs: the entity's type. */
  entityType: string;
  externalId: string;
  /** At most 1 KiB of JSON (the table's `events_data_small` check). */
  data?: Record<string, unknown>;
}

/** A stored event: its number in the eshop's sequence, and when its transaction ran. */
export interface StoredEvent {
  seq: number;
  type: EventType;
  entityType: string;
  externalId: string;
  /** ISO 8601 UTC with microseconds and `Z` (as the v2 API shows timestamps). */
  occurredAt: string;
  data: Record<string, unknown>;
}

interface EventOut {
  seq: number;
  type: EventType;
  entity_type: string;
  external_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

/**
 * The outbox: events are written in the transaction of the change they describe, numbered per
 * eshop 1, 2, 3… without gaps (docs/decisions.md, "Events").
 */
export const eventsRepository = {
  /**
   * Appends `events` (in this order) to the eshop's sequence in one statement: the eshop's
   * counter row goes up by their number (created at the first event) and the events take the
   * numbers it reserved. The counter row stays locked until the caller's transaction ends, so
   * concurrent writers of one eshop number their events in commit order and a rolled-back
   * transaction gives its numbers back; writers of other eshops never wait for it.
   *
   * Call it last in the transaction: a transaction that holds the counter must not wait for any
   * other lock, or two writers of one eshop could wait for each other. Returns the numbers taken.
   */
  async append(trx: Knex.Transaction, eshopId: number, events: readonly NewEvent[]): Promise<number[]> {
    if (!events.length) return [];
    const rows = events.map((e) => ({
      type: e.type,
      entity_type: e.entityType,
      external_id: e.externalId,
      data: e.data ?? {},
    }));
    // One JSON array parameter, whatever the number of events (no bind-parameter limit).
    const { rows: inserted } = await trx.raw<{ rows: { seq: number }[] }>(
      `with reserved as (
         insert into event_sequences as s (eshop_id, last_seq) values (?, ?)
         on conflict (eshop_id) do update set last_seq = s.last_seq + excluded.last_seq
         returning last_seq
       )
       insert into events (eshop_id, seq, type, entity_type, external_id, data)
       select ?, reserved.last_seq - ? + e.ord, e.value->>'type', e.value->>'entity_type',
              e.value->>'external_id', e.value->'data'
       from reserved, jsonb_array_elements(?::jsonb) with ordinality as e(value, ord)
       order by e.ord
       returning seq`,
      [eshopId, rows.length, eshopId, rows.length, JSON.stringify(rows)],
    );
    return inserted.map((r) => r.seq).sort((a, b) => a - b);
  },

  /** One event of the eshop by its number, or null. */
  async find(db: Knex | Knex.Transaction, eshopId: number, seq: number): Promise<StoredEvent | null> {
    const [event] = await eventsRepository.listAfter(db, eshopId, seq - 1, 1);
    return event?.seq === seq ? event : null;
  },

  /** The eshop's events numbered above `afterSeq`, in order, at most `limit`. */
  async listAfter(
    db: Knex | Knex.Transaction,
    eshopId: number,
    afterSeq: number,
    limit: number,
  ): Promise<StoredEvent[]> {
    const rows = await db('events')
      .select<EventOut[]>(
        'seq',
        'type',
        'entity_type',
        'external_id',
        db.raw(`${isoMicros('occurred_at')} as occurred_at`),
        'data',
      )
      .where('eshop_id', eshopId)
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit);
    return rows.map((r) => ({
      seq: r.seq,
      type: r.type,
      entityType: r.entity_type,
      externalId: r.external_id,
      occurredAt: r.occurred_at,
      data: r.data,
    }));
  },
};
