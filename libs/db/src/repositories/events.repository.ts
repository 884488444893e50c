import { context, propagation } from '@opentelemetry/api';
import type { EventType } from '@catalogue/config';
import type { Knex } from 'knex';
import { checkedRows, rawRows, runRaw } from '../sql-rows';
import type { Row } from '../tables';
import { isoMicros } from '../timestamps';

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

/** An event as listAfter reads it: the stored columns, the time as text with microseconds. */
type EventOut = Pick<Row<'events'>, 'seq' | 'type' | 'entity_type' | 'external_id' | 'data'> & {
  occurred_at: string;
};

/**
 * Events one append may write at most (its provisional numbers are a block of this size). The
 * numbering trigger (migration `20261129030000_event_numbers_per_append`) knows the block by the
 * same size: it fires for the number ending in …000001 and numbers the 999,999 below it.
 */
const PROVISIONAL_BLOCK = 1_000_000;

/**
 * The outbox: events are written in the transaction of the change they describe, numbered per
 * eshop 1, 2, 3… without gaps (docs/decisions/0027-events-the-outbox-and-the-change.md, "Events").
 */
export const eventsRepository = {
  /**
   * Appends `events` (in this order) to the eshop's sequence in one statement. They are written
   * with provisional negative numbers, which no reader sees, and take their numbers as the
   * transaction commits (the deferred trigger `events_number_at_commit`, migrations
   * `20261129001600_event_numbers_at_commit` and `20261129030000_event_numbers_per_append`, once
   * per append over the append's own block): the eshop's counter row is locked only while the
   * commit runs, so writers of one eshop work in parallel, their events are numbered in commit
   * order without gaps, and a rolled-back transaction takes no number. It may be called anywhere
   * in the transaction.
   *
   * Each event keeps the trace context of the span writing it (W3C `traceparent`, null while
   * tracing is off), so its webhook deliveries continue the request's or job's trace.
   */
  async append(trx: Knex.Transaction, eshopId: number, events: readonly NewEvent[]): Promise<void> {
    if (!events.length) return;
    if (events.length >= PROVISIONAL_BLOCK)
      throw new Error(`at most ${PROVISIONAL_BLOCK - 1} events per append`);
    const carrier: { traceparent?: string } = {};
    propagation.inject(context.active(), carrier);
    const rows = events.map((e) => ({
      type: e.type,
      entity_type: e.entityType,
      external_id: e.externalId,
      data: e.data ?? {},
    }));
    // One JSON array parameter, whatever the number of events (no bind-parameter limit). One
    // provisional block per statement: -(block × 10^6 + position), falling in the order written.
    await runRaw(
      trx,
      `with block as materialized (select nextval('events_provisional_seq') as b)
       insert into events (eshop_id, seq, type, entity_type, external_id, data, traceparent)
       select ?, -(block.b * ${PROVISIONAL_BLOCK} + e.ord), e.value->>'type', e.value->>'entity_type',
              e.value->>'external_id', e.value->'data', ?::text
       from block, jsonb_array_elements(?::jsonb) with ordinality as e(value, ord)`,
      [eshopId, carrier.traceparent ?? null, JSON.stringify(rows)],
    );
  },

  /** One event of the eshop by its number, or null. */
  async find(db: Knex | Knex.Transaction, eshopId: number, seq: number): Promise<StoredEvent | null> {
    const [event] = await eventsRepository.listAfter(db, eshopId, seq - 1, 1);
    return event?.seq === seq ? event : null;
  },

  /**
   * Deletes up to `limit` events older than `days` days (the sweeper's retention), oldest
   * transactions first as the `events_occurred_at` index gives them; returns how many. The
   * eshops' counters are untouched: numbering goes on from where it was.
   */
  async deleteOlderThan(db: Knex, days: number, limit: number): Promise<number> {
    const result = await runRaw(
      db,
      `delete from events where ctid in (
         select ctid from events where occurred_at < now() - make_interval(days => ?) limit ?)`,
      [days, limit],
    );
    return result.rowCount;
  },

  /**
   * The number of the eshop's oldest event still kept, and of its newest ever written (0 when it
   * has none): the feed tells a cursor older than what is kept from one that is merely behind.
   */
  async bounds(
    db: Knex | Knex.Transaction,
    eshopId: number,
  ): Promise<{ oldest: number | null; newest: number }> {
    const rows = await rawRows<{ oldest: number | null; newest: number | null }>(
      db,
      `select (select min(seq) from events where eshop_id = ?) as oldest,
              (select last_seq from event_sequences where eshop_id = ?) as newest`,
      [eshopId, eshopId],
      ['oldest', 'newest'],
    );
    const row = rows[0]!;
    return { oldest: row.oldest === null ? null : Number(row.oldest), newest: Number(row.newest ?? 0) };
  },

  /**
   * The number of the eshop's newest event ever written (0 when it has none): one primary-key
   * read of its counter row. Compared between the primary and a replica, it tells whether the
   * replica has replayed every event-writing change of the eshop (docs/decisions/0049-reads-from-a-replica.md, "Reads
   * from a replica").
   */
  async newest(db: Knex | Knex.Transaction, eshopId: number): Promise<number> {
    const row = await db('event_sequences').first('last_seq').where('eshop_id', eshopId);
    return Number(row?.last_seq ?? 0);
  },

  /** The eshop's events numbered above `afterSeq`, in order, at most `limit`. */
  async listAfter(
    db: Knex | Knex.Transaction,
    eshopId: number,
    afterSeq: number,
    limit: number,
  ): Promise<StoredEvent[]> {
    const rows = await db('events')
      .select(
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
    return checkedRows<EventOut>(rows, [
      'seq',
      'type',
      'entity_type',
      'external_id',
      'occurred_at',
      'data',
    ]).map((r) => ({
      seq: r.seq,
      type: r.type,
      entityType: r.entity_type,
      externalId: r.external_id,
      occurredAt: r.occurred_at,
      data: r.data,
    }));
  },
};
