import type { EventType } from '@catalogue/config';
import type { Knex } from 'knex';
import { checkedRows, rawRows } from '../sql-rows';
import type { Row } from '../tables';
import { isoOffset } from '../timestamps';
import { INTERNAL_ID, keysFrom, keysSql } from './tenant-keys';

/** An endpoint as the API and the CLI show it: never its secret. */
export interface WebhookEndpoint {
  id: number;
  eshopId: number;
  url: string;
  eventTypes: EventType[];
  /** The number of the eshop's last event relayed to it. */
  lastSeq: number;
  failingSince: string | null;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
}

/** What the worker needs to deliver: the endpoint and its secret(s). */
export interface WebhookTarget extends WebhookEndpoint {
  secret: string;
  /** The secret before the last rotation, while its overlap window lasts; deliveries carry both. */
  previousSecret: string | null;
}

/** One delivery attempt of the endpoint's log. */
export interface WebhookDelivery {
  seq: number;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
  at: string;
}

export interface NewWebhookDelivery {
  eshopId: number;
  endpointId: number;
  seq: number;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
}

/** An enabled endpoint with events after its cursor. */
export interface RelayCursor {
  id: number;
  eshopId: number;
  eventTypes: EventType[];
  lastSeq: number;
}

/** A redelivery still to be queued, of an enabled endpoint. */
export interface PendingRedelivery {
  id: number;
  eshopId: number;
  endpointId: number;
  eventTypes: EventType[];
  nextSeq: number;
  toSeq: number;
}

/** How far behind the newest event the enabled endpoints' cursors are (the worst of them). */
export interface OutboxLag {
  events: number;
  seconds: number;
}

/** Attempts kept per endpoint in its delivery log. */
export const DELIVERY_LOG_SIZE = 1_000;

/** An endpoint as selectEndpoints reads it: stored columns, its times as text, the live previous secret. */
type EndpointOut = Pick<
  Row<'webhook_endpoints'>,
  'id' | 'eshop_id' | 'url' | 'event_types' | 'secret' | 'previous_secret' | 'last_seq' | 'disabled_reason'
> & { failing_since: string | null; disabled_at: string | null; created_at: string };

const ENDPOINT_OUT = [
  'id',
  'eshop_id',
  'url',
  'event_types',
  'secret',
  'previous_secret',
  'last_seq',
  'failing_since',
  'disabled_at',
  'disabled_reason',
  'created_at',
] as const satisfies readonly (keyof EndpointOut)[];

function selectEndpoints(db: Knex | Knex.Transaction) {
  return db('webhook_endpoints').select(
    'id',
    'eshop_id',
    'url',
    'event_types',
    'secret',
    db.raw(`case when previous_secret_expires_at > now() then previous_secret end as previous_secret`),
    'last_seq',
    db.raw(`${isoOffset('failing_since')} as failing_since`),
    db.raw(`${isoOffset('disabled_at')} as disabled_at`),
    'disabled_reason',
    db.raw(`${isoOffset('created_at')} as created_at`),
  );
}

function toEndpoint(row: EndpointOut): WebhookEndpoint {
  return {
    id: row.id,
    eshopId: row.eshop_id,
    url: row.url,
    eventTypes: row.event_types,
    lastSeq: row.last_seq,
    failingSince: row.failing_since,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
  };
}

/**
 * Webhook endpoints, their relay cursors, delivery log and redelivery requests (docs/decisions/0029-webhooks.md,
 * "Webhooks"). Every function names the eshop, so one eshop's id never reaches another's row.
 */
export const webhooksRepository = {
  /**
   * Registers an endpoint. Its cursor starts at the eshop's newest event: it receives what
   * happens from now on (the change feed has the history).
   */
  async create(
    db: Knex | Knex.Transaction,
    input: { eshopId: number; url: string; eventTypes: readonly EventType[]; secret: string },
  ): Promise<WebhookEndpoint> {
    const rows = await rawRows<{ id: number }>(
      db,
      `insert into webhook_endpoints (eshop_id, url, event_types, secret, last_seq)
       values (:eshop, :url, :types::text[], :secret,
               coalesce((select last_seq from event_sequences where eshop_id = :eshop), 0))
       returning id`,
      { eshop: input.eshopId, url: input.url, types: [...input.eventTypes], secret: input.secret },
      ['id'],
    );
    const created = await webhooksRepository.find(db, input.eshopId, rows[0]!.id);
    return created!;
  },

  async list(db: Knex | Knex.Transaction, eshopId: number): Promise<WebhookEndpoint[]> {
    const rows = await selectEndpoints(db).where('eshop_id', eshopId).orderBy('id');
    return checkedRows<EndpointOut>(rows, ENDPOINT_OUT).map(toEndpoint);
  },

  async find(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<WebhookEndpoint | null> {
    const [row] = checkedRows<EndpointOut>(
      await selectEndpoints(db).where({ eshop_id: eshopId, id }),
      ENDPOINT_OUT,
    );
    return row ? toEndpoint(row) : null;
  },

  /**
   * The endpoint with its secret, for the worker that signs deliveries, and the previous secret
   * while its window lasts (by the database clock; an expired one is never returned).
   */
  async target(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<WebhookTarget | null> {
    const [row] = checkedRows<EndpointOut>(
      await selectEndpoints(db).where({ eshop_id: eshopId, id }),
      ENDPOINT_OUT,
    );
    return row ? { ...toEndpoint(row), secret: row.secret, previousSecret: row.previous_secret } : null;
  },

  /**
   * Replaces the endpoint's secret; the current one stays valid as the previous secret for
   * `overlapSeconds` (a previous secret of an earlier rotation is dropped). Null when the eshop
   * has no such endpoint.
   */
  async rotateSecret(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    secret: string,
    overlapSeconds: number,
  ): Promise<{ endpoint: WebhookEndpoint; previousSecretExpiresAt: string } | null> {
    const rows = await rawRows<{ expires: string }>(
      db,
      `update webhook_endpoints
          set previous_secret = secret,
              previous_secret_expires_at = now() + make_interval(secs => :overlap),
              secret = :secret,
              updated_at = now()
        where eshop_id = :eshop and id = :id
       returning ${isoOffset('previous_secret_expires_at')} as expires`,
      { eshop: eshopId, id, secret, overlap: overlapSeconds },
      ['expires'],
    );
    if (!rows[0]) return null;
    const endpoint = await webhooksRepository.find(db, eshopId, id);
    return { endpoint: endpoint!, previousSecretExpiresAt: rows[0].expires };
  },

  /** Removes the endpoint with its log and redeliveries; false when the eshop has no such endpoint. */
  async remove(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<boolean> {
    return (await db('webhook_endpoints').where({ eshop_id: eshopId, id }).delete()) > 0;
  },

  /** Enables the endpoint again (its failure run forgotten); null when the eshop has no such endpoint. */
  async enable(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<WebhookEndpoint | null> {
    const updated = await db('webhook_endpoints')
      .where({ eshop_id: eshopId, id })
      .update({ disabled_at: null, disabled_reason: null, failing_since: null, updated_at: db.fn.now(6) });
    return updated ? webhooksRepository.find(db, eshopId, id) : null;
  },

  /** Enabled endpoints whose eshop has events after their cursor, most behind first, at most `limit`. */
  async cursorsBehind(db: Knex | Knex.Transaction, limit: number): Promise<RelayCursor[]> {
    const rows = await rawRows<{ id: number; eshop_id: number; event_types: EventType[]; last_seq: number }>(
      db,
      `select w.id, w.eshop_id, w.event_types, w.last_seq
       from webhook_endpoints w
       join event_sequences s on s.eshop_id = w.eshop_id
       where w.disabled_at is null and s.last_seq > w.last_seq
       order by s.last_seq - w.last_seq desc, w.id
       limit :limit`,
      { limit },
      ['id', 'eshop_id', 'event_types', 'last_seq'],
    );
    return rows.map((r) => ({
      id: r.id,
      eshopId: r.eshop_id,
      eventTypes: r.event_types,
      lastSeq: r.last_seq,
    }));
  },

  /**
   * Numbers, types and trace contexts of the eshop's events in (`afterSeq`, `upToSeq`], in order,
   * at most `limit`.
   */
  async eventsAfter(
    db: Knex | Knex.Transaction,
    eshopId: number,
    afterSeq: number,
    limit: number,
    upToSeq = Number.MAX_SAFE_INTEGER,
  ): Promise<{ seq: number; type: EventType; traceparent: string | null }[]> {
    return db('events')
      .select('seq', 'type', 'traceparent')
      .where('eshop_id', eshopId)
      .andWhere('seq', '>', afterSeq)
      .andWhere('seq', '<=', upToSeq)
      .orderBy('seq')
      .limit(limit);
  },

  /**
   * Moves the endpoint's cursor from `fromSeq` to `toSeq`; a cursor another relay moved meanwhile
   * is left alone (it never goes back). Returns whether this call moved it.
   */
  async advance(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    fromSeq: number,
    toSeq: number,
  ): Promise<boolean> {
    const updated = await db('webhook_endpoints')
      .where({ eshop_id: eshopId, id, last_seq: fromSeq })
      .update({ last_seq: toSeq });
    return updated > 0;
  },

  /**
   * Logs one attempt and trims the endpoint's log to its newest DELIVERY_LOG_SIZE attempts (an
   * endpoint of another eshop finds no attempt, so the bound is null and nothing is deleted; the
   * insert fails first, on the (eshop_id, endpoint_id) key). The delete and the subquery that
   * finds where the trim ends name the eshop through a one-element unnest (as keysFrom does), so
   * both stay in one eshop (one shard) and probe the endpoint's range of (endpoint_id, id): with
   * `eshop_id = ?`, stale statistics make a walk of the eshop's attempts through (eshop_id, seq),
   * or through the primary key (eshop_id, id) in the subquery's order, cost the same.
   */
  async recordAttempt(db: Knex | Knex.Transaction, d: NewWebhookDelivery): Promise<void> {
    await db.raw(
      `with added as (
         insert into webhook_deliveries
           (eshop_id, endpoint_id, seq, attempt, status_code, error, latency_ms, response_excerpt)
         values (:eshop, :endpoint, :seq, :attempt, :status, :error, :latency, :excerpt)
         returning id)
       delete from webhook_deliveries w
       using unnest(array[:eshop::integer]) as k(eshop_id)
       where w.eshop_id = k.eshop_id and w.endpoint_id = :endpoint
         and w.id <= (select d.id from unnest(array[:eshop::integer]) as kd(eshop_id)
                      join webhook_deliveries d on d.eshop_id = kd.eshop_id
                      where d.endpoint_id = :endpoint
                      order by d.id desc offset :keep limit 1)`,
      {
        eshop: d.eshopId,
        endpoint: d.endpointId,
        seq: d.seq,
        attempt: d.attempt,
        status: d.statusCode,
        error: d.error === null ? null : d.error.slice(0, 500),
        latency: Math.max(0, Math.round(d.latencyMs)),
        excerpt: d.responseExcerpt === null ? null : d.responseExcerpt.slice(0, 256),
        // The new row is not visible to the delete's subquery: keep one fewer old row.
        keep: DELIVERY_LOG_SIZE - 1,
      },
    );
  },

  /** A 2xx: the endpoint's run of failures (if any) is over. */
  async markDelivered(db: Knex | Knex.Transaction, eshopId: number, id: number): Promise<void> {
    await db('webhook_endpoints')
      .where({ eshop_id: eshopId, id })
      .whereNotNull('failing_since')
      .update({ failing_since: null });
  },

  /**
   * A failed attempt: the run of failures starts now if none runs; when it has lasted
   * `windowMs`, the endpoint is disabled with `reason`. Returns whether this call disabled it.
   */
  async markFailed(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    windowMs: number,
    reason: string,
  ): Promise<boolean> {
    const rows = await rawRows<{ disabled: boolean }>(
      db,
      `update webhook_endpoints w
       set failing_since = coalesce(w.failing_since, now()),
           disabled_at = case when d.due then now() else w.disabled_at end,
           disabled_reason = case when d.due then :reason else w.disabled_reason end,
           updated_at = case when d.due then now() else w.updated_at end
       from (select id, disabled_at is null and failing_since is not null
                    and failing_since <= now() - make_interval(secs => :window / 1000.0) as due
             from webhook_endpoints where eshop_id = :eshop and id = :id for update) d
       where w.eshop_id = :eshop and w.id = d.id
       returning d.due as disabled`,
      { eshop: eshopId, id, window: windowMs, reason },
      ['disabled'],
    );
    return rows[0]?.disabled === true;
  },

  /**
   * The endpoint's newest attempts first, at most `limit`. The eshop comes from a one-element
   * unnest (as in keysFrom): with `eshop_id = ?`, stale statistics make a walk of the eshop's
   * attempts through the primary key (eshop_id, id), in the same order, cost what the endpoint's
   * range of (endpoint_id, id) costs.
   */
  async deliveries(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    limit: number,
  ): Promise<WebhookDelivery[]> {
    const rows = await db
      .from(db.raw('unnest(array[?::integer]) as k(eshop_id)', [eshopId]))
      .join('webhook_deliveries as d', 'd.eshop_id', 'k.eshop_id')
      .select(
        'd.seq',
        'd.attempt',
        'd.status_code',
        'd.error',
        'd.latency_ms',
        'd.response_excerpt',
        db.raw(`${isoOffset('d.at')} as at`),
      )
      .where('d.endpoint_id', id)
      .orderBy('d.id', 'desc')
      .limit(limit);
    const deliveries = checkedRows<
      Pick<
        Row<'webhook_deliveries'>,
        'seq' | 'attempt' | 'status_code' | 'error' | 'latency_ms' | 'response_excerpt'
      > & {
        at: string;
      }
    >(rows, ['seq', 'attempt', 'status_code', 'error', 'latency_ms', 'response_excerpt', 'at']);
    return deliveries.map((r) => ({
      seq: r.seq,
      attempt: r.attempt,
      statusCode: r.status_code,
      error: r.error,
      latencyMs: r.latency_ms,
      responseExcerpt: r.response_excerpt,
      at: r.at,
    }));
  },

  /** Asks for the events `fromSeq`..`toSeq` to be sent again (the relay queues them). */
  async requestRedelivery(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    fromSeq: number,
    toSeq: number,
  ): Promise<number> {
    const [row] = await db('webhook_redeliveries')
      .insert({ eshop_id: eshopId, endpoint_id: id, next_seq: fromSeq, to_seq: toSeq })
      .returning('id');
    return row!.id;
  },

  /** Redeliveries of enabled endpoints still to queue, oldest first. */
  async pendingRedeliveries(db: Knex | Knex.Transaction, limit: number): Promise<PendingRedelivery[]> {
    const rows = await rawRows<{
      id: number;
      eshop_id: number;
      endpoint_id: number;
      event_types: EventType[];
      next_seq: number;
      to_seq: number;
    }>(
      db,
      `select r.id, r.eshop_id, r.endpoint_id, w.event_types, r.next_seq, r.to_seq
       from webhook_redeliveries r
       join webhook_endpoints w on w.eshop_id = r.eshop_id and w.id = r.endpoint_id
       where w.disabled_at is null
       order by r.id
       limit :limit`,
      { limit },
      ['id', 'eshop_id', 'endpoint_id', 'event_types', 'next_seq', 'to_seq'],
    );
    return rows.map((r) => ({
      id: r.id,
      eshopId: r.eshop_id,
      endpointId: r.endpoint_id,
      eventTypes: r.event_types,
      nextSeq: r.next_seq,
      toSeq: r.to_seq,
    }));
  },

  /**
   * The redelivery has been queued up to `doneSeq`: moves it on, or removes it when finished. By
   * its key joined (keysFrom): by stale statistics a walk of the eshop's redeliveries through
   * (eshop_id, endpoint_id) costs the same as the primary key's probe.
   */
  async redeliveryQueued(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    doneSeq: number,
  ): Promise<void> {
    const keys = keysSql(eshopId, [id], INTERNAL_ID);
    await db.raw(
      `delete from webhook_redeliveries r using ${keys.sql}
       where r.eshop_id = k.eshop_id and r.id = x.id and r.to_seq <= ?`,
      [...keys.bindings, doneSeq],
    );
    await db('webhook_redeliveries')
      .where('webhook_redeliveries.eshop_id', db.ref('k.eshop_id'))
      .andWhere('webhook_redeliveries.id', db.ref('x.id'))
      .andWhere('webhook_redeliveries.next_seq', '<=', doneSeq)
      .update({ next_seq: doneSeq + 1 })
      // After update(): knex checks the values against the table's row type only before updateFrom.
      .updateFrom(keysFrom(db, eshopId, [id], INTERNAL_ID));
  },

  /**
   * Relays `seqs` (the endpoint's events of its types in (`fromSeq`, `toSeq`]): records each as
   * pending delivery and moves the cursor, in one transaction. A cursor another relay moved
   * meanwhile is left alone (it never goes back) and nothing is recorded. Returns whether this
   * call moved it. The pending rows are what the relay queues again when Redis loses the jobs.
   */
  async relay(
    db: Knex,
    eshopId: number,
    id: number,
    fromSeq: number,
    toSeq: number,
    seqs: readonly number[],
  ): Promise<boolean> {
    return db.transaction(async (trx) => {
      const moved = await trx('webhook_endpoints')
        .where({ eshop_id: eshopId, id, last_seq: fromSeq })
        .update({ last_seq: toSeq });
      if (moved === 0) return false;
      if (seqs.length) {
        await trx('webhook_pending_deliveries')
          .insert(seqs.map((seq) => ({ eshop_id: eshopId, endpoint_id: id, seq })))
          .onConflict(['eshop_id', 'endpoint_id', 'seq'])
          .ignore();
      }
      return true;
    });
  },

  /**
   * A delivery job starts an attempt: 'pending' when the event still waits for its delivery (the
   * claim is stamped, so the relay does not queue it again while the attempt runs), 'untracked'
   * for an event relayed before delivery state was kept (sent as before), 'done' when its delivery
   * has already succeeded or finally failed (a job queued again must not send it twice).
   */
  async claimDelivery(
    db: Knex | Knex.Transaction,
    eshopId: number,
    id: number,
    seq: number,
  ): Promise<'pending' | 'untracked' | 'done'> {
    const claimed = await db('webhook_pending_deliveries')
      .where({ eshop_id: eshopId, endpoint_id: id, seq })
      .update({ claimed_at: db.fn.now(6) });
    if (claimed > 0) return 'pending';
    const [row] = await db('webhook_endpoints')
      .select('delivery_tracked_from')
      .where({ eshop_id: eshopId, id });
    return row && seq <= Number(row.delivery_tracked_from) ? 'untracked' : 'done';
  },

  /** The event's delivery succeeded or finally failed: it is no longer pending. */
  async deliveryEnded(db: Knex | Knex.Transaction, eshopId: number, id: number, seq: number): Promise<void> {
    await db('webhook_pending_deliveries').where({ eshop_id: eshopId, endpoint_id: id, seq }).delete();
  },

  /**
   * Pending deliveries of enabled endpoints not queued, checked or attempted for `idleSeconds`:
   * their job may be gone with Redis. Per endpoint only those before its first pending delivery
   * that is not idle (an attempt ran lately): what the relay queues again then goes in event
   * order, the later ones following once that one is idle too. In endpoint and event order, at
   * most `limit`.
   */
  async idlePendingDeliveries(
    db: Knex | Knex.Transaction,
    idleSeconds: number,
    limit: number,
  ): Promise<{ eshopId: number; endpointId: number; seq: number }[]> {
    const rows = await rawRows<{ eshop_id: number; endpoint_id: number; seq: string }>(
      db,
      `select p.eshop_id, p.endpoint_id, p.seq
       from webhook_pending_deliveries p
       join webhook_endpoints w on w.eshop_id = p.eshop_id and w.id = p.endpoint_id
       where w.disabled_at is null
         and greatest(p.queued_at, coalesce(p.claimed_at, p.queued_at)) < now() - make_interval(secs => :idle)
         and not exists (
           select 1 from webhook_pending_deliveries q
           where q.eshop_id = p.eshop_id and q.endpoint_id = p.endpoint_id and q.seq < p.seq
             and greatest(q.queued_at, coalesce(q.claimed_at, q.queued_at)) >= now() - make_interval(secs => :idle))
       order by p.endpoint_id, p.seq
       limit :limit`,
      { idle: idleSeconds, limit },
      ['eshop_id', 'endpoint_id', 'seq'],
    );
    return rows.map((r) => ({ eshopId: r.eshop_id, endpointId: Number(r.endpoint_id), seq: Number(r.seq) }));
  },

  /** The relay has queued (or found alive) the job of these pending deliveries just now. */
  async deliveriesChecked(
    db: Knex | Knex.Transaction,
    deliveries: readonly { eshopId: number; endpointId: number; seq: number }[],
  ): Promise<void> {
    if (!deliveries.length) return;
    await db.raw(
      `update webhook_pending_deliveries p set queued_at = now()
       from unnest(:eshops::int[], :endpoints::bigint[], :seqs::bigint[]) as d(eshop_id, endpoint_id, seq)
       where p.endpoint_id = d.endpoint_id and p.seq = d.seq and p.eshop_id = d.eshop_id`,
      {
        eshops: deliveries.map((d) => d.eshopId),
        endpoints: deliveries.map((d) => d.endpointId),
        seqs: deliveries.map((d) => d.seq),
      },
    );
  },

  /**
   * The worst lag of the enabled endpoints whose receiver is not failing: the events from the
   * oldest one not yet delivered (pending, or not relayed yet) to the eshop's newest, and the age
   * of that oldest one (0 and 0 when everything is delivered). An event counts until its delivery
   * succeeded or finally failed. An endpoint with `failing_since` set is left out: its retries are
   * the eshop's receiver's problem (its own endpoint state and delivery log say so), and the
   * operator's alert on this lag must not page for it.
   */
  async lag(db: Knex | Knex.Transaction): Promise<OutboxLag> {
    const rows = await rawRows<{ events: number | null; seconds: number | null }>(
      db,
      `select max(s.last_seq - coalesce(p.oldest - 1, w.last_seq))::bigint as events,
              max(extract(epoch from now() - e.occurred_at))::float8 as seconds
       from webhook_endpoints w
       join event_sequences s on s.eshop_id = w.eshop_id
       left join lateral (select min(seq) as oldest from webhook_pending_deliveries p
                          where p.eshop_id = w.eshop_id and p.endpoint_id = w.id) p on true
       left join events e on e.eshop_id = w.eshop_id and e.seq = coalesce(p.oldest, w.last_seq + 1)
       where w.disabled_at is null and w.failing_since is null`,
      [],
      ['events', 'seconds'],
    );
    return { events: Math.max(0, Number(rows[0]?.events ?? 0)), seconds: Math.max(0, rows[0]?.seconds ?? 0) };
  },
};
