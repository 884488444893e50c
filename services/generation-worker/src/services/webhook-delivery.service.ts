/**
 * One attempt of one webhook delivery: the event as a CloudEvents 1.0 JSON body, signed with the
 * endpoint's secret (Standard Webhooks headers; the webhook-id is the same on every attempt and
 * redelivery), POSTed with a time limit to a URL the egress rules still accept. A 2xx ends it;
 * anything else is logged and thrown, so BullMQ retries it with the delivery backoff. An endpoint
 * that has failed without a success for the whole failure window is disabled here, and a
 * disabled or removed endpoint is sent nothing.
 *
 * An event relayed to the endpoint is pending in PostgreSQL until its delivery succeeds or fails
 * for the last time (the last attempt, or the endpoint disabled); only then does its row go, and
 * a job of an event whose row is gone sends nothing (the relay may queue a job again under the
 * same id after Redis lost it, and BullMQ forgets completed jobs after a day).
 */
import { performance } from 'node:perf_hooks';
import { UnrecoverableError } from 'bullmq';
import type { Config } from '@catalogue/config';
import { eventsRepository, webhooksRepository, type Knex } from '@catalogue/db';
import {
  checkOutboundHost,
  EgressRefusal,
  parseOutboundUrl,
  type EgressPolicy,
  type Lookup,
} from '@catalogue/egress';
import type { JobPayloads } from '@catalogue/queue';
import { inSpan, SpanKind, SpanStatusCode } from '@catalogue/tracing';
import type { Dispatcher } from 'undici';
import { cloudEvent, signedHeaders, webhookMessageId } from '@catalogue/webhooks';
import type { WebhookMetrics, WebhookOutcome } from '../metrics';

export interface DeliveryDeps {
  db: Knex;
  config: Pick<Config, 'webhooks'>;
  webhookMetrics: WebhookMetrics;
  /** What endpoints may reach besides public addresses (libs/egress, as at registration). */
  webhookEgress: EgressPolicy;
  /** DNS for the address check (tests); dns.lookup by default. */
  lookup?: Lookup;
  /** The HTTP client of deliveries: connects only to addresses `webhookEgress` allows. */
  webhookDispatcher: Dispatcher;
}

/** Characters of an answer kept in the delivery log. */
const EXCERPT_CHARS = 256;

/** The first bytes of a body as text; the rest is not downloaded. */
async function excerptOf(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < EXCERPT_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = [...Buffer.concat(chunks).toString('utf8')].slice(0, EXCERPT_CHARS).join('');
  return text === '' ? null : text;
}

interface Attempt {
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

async function send(
  deps: DeliveryDeps,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<Attempt> {
  const timeoutMs = deps.config.webhooks.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const target = parseOutboundUrl(url);
    // Checked again at every attempt: a host may have moved to a private address since registration.
    const checked = await checkOutboundHost(target, deps.webhookEgress, deps.lookup);
    // Node's fetch takes undici's `dispatcher`; the DOM's RequestInit type does not name it.
    const init: RequestInit & { dispatcher: Dispatcher } = {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal,
      dispatcher: deps.webhookDispatcher,
    };
    const res = await fetch(target, init);
    // A private target's answer is not kept: the log must not become a way to read internal
    // services (what a Redis or database port says) through the deliveries API.
    if (checked.private) {
      await res.body?.cancel().catch(() => undefined);
      return { statusCode: res.status, error: null, responseExcerpt: null };
    }
    const responseExcerpt = await excerptOf(res).catch(() => null);
    return { statusCode: res.status, error: null, responseExcerpt };
  } catch (err) {
    // Refused before the request, or at the connection (the host answered otherwise by then).
    const refusal = err instanceof EgressRefusal ? err : (err as { cause?: unknown }).cause;
    if (refusal instanceof EgressRefusal)
      return { statusCode: null, error: `refused: ${refusal.message}`, responseExcerpt: null };
    if (signal.aborted)
      return { statusCode: null, error: `timed out after ${timeoutMs} ms`, responseExcerpt: null };
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    return {
      statusCode: null,
      error: `request failed${typeof code === 'string' ? ` (${code})` : ''}`,
      responseExcerpt: null,
    };
  }
}

function duration(ms: number): string {
  return ms >= 3_600_000 ? `${Number((ms / 3_600_000).toFixed(1))} h` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** Runs attempt `attempt` (1 = first) of delivering event `seq` to the endpoint. */
export async function deliverWebhook(
  deps: DeliveryDeps,
  job: JobPayloads['webhook-delivery'],
  attempt: number,
): Promise<WebhookOutcome> {
  const { eshop_id: eshopId, endpoint_id: endpointId, seq } = job;
  const metrics = deps.webhookMetrics;
  // Redeliveries are asked for on purpose and tracked by their request, not as pending.
  const tracked = job.redelivery_id === undefined;
  if (tracked && (await webhooksRepository.claimDelivery(deps.db, eshopId, endpointId, seq)) === 'done') {
    metrics.deliveries.inc({ outcome: 'skipped' });
    return 'skipped';
  }
  const ended = async (): Promise<void> => {
    if (tracked) await webhooksRepository.deliveryEnded(deps.db, eshopId, endpointId, seq);
  };
  const target = await webhooksRepository.target(deps.db, eshopId, endpointId);
  const event = target && (await eventsRepository.find(deps.db, eshopId, seq));
  if (!target || !event) {
    await ended();
    // Removed since the relay queued it: nothing to send, nobody to tell.
    metrics.deliveries.inc({ outcome: 'skipped' });
    return 'skipped';
  }
  if (target.disabledAt !== null) {
    await webhooksRepository.recordAttempt(deps.db, {
      eshopId,
      endpointId,
      seq,
      attempt,
      statusCode: null,
      error: 'not sent: the endpoint is disabled',
      latencyMs: 0,
      responseExcerpt: null,
    });
    await ended();
    metrics.deliveries.inc({ outcome: 'skipped' });
    return 'skipped';
  }

  const body = JSON.stringify(cloudEvent(eshopId, event));
  const headers = {
    // During a rotation's overlap window both secrets sign (docs/decisions.md, "Webhook secret rotation").
    ...signedHeaders(
      target.previousSecret ? [target.secret, target.previousSecret] : [target.secret],
      webhookMessageId(eshopId, seq),
      body,
      new Date(),
    ),
    'content-type': 'application/cloudevents+json; charset=utf-8',
    'user-agent': 'catalogue-content-service webhooks',
  };
  const started = performance.now();
  // The span names the endpoint by id, never by its URL (a query string may hold a receiver's
  // token) and carries no header: the signature and the secret stay out of the trace.
  const result = await inSpan(
    'webhook deliver',
    {
      'app.eshop_id': eshopId,
      'app.webhook.endpoint_id': endpointId,
      'app.event.seq': seq,
      'app.attempt': attempt,
    },
    async (span) => {
      const attempted = await send(deps, target.url, headers, body);
      if (attempted.statusCode !== null) span.setAttribute('http.response.status_code', attempted.statusCode);
      const delivered =
        attempted.statusCode !== null && attempted.statusCode >= 200 && attempted.statusCode < 300;
      if (!delivered) span.setStatus({ code: SpanStatusCode.ERROR, message: attempted.error ?? 'not 2xx' });
      return attempted;
    },
    SpanKind.CLIENT,
  );
  const latencyMs = performance.now() - started;
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const outcome: WebhookOutcome = ok ? 'delivered' : 'failed';
  metrics.deliveries.inc({ outcome });
  metrics.duration.observe({ outcome }, latencyMs / 1000);
  await webhooksRepository.recordAttempt(deps.db, {
    eshopId,
    endpointId,
    seq,
    attempt,
    latencyMs,
    ...result,
  });
  if (ok) {
    await webhooksRepository.markDelivered(deps.db, eshopId, endpointId);
    await ended();
    return outcome;
  }

  const what = result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? 'failed');
  const windowMs = deps.config.webhooks.disableAfterMs;
  const disabled = await webhooksRepository.markFailed(
    deps.db,
    eshopId,
    endpointId,
    windowMs,
    `Deliveries failed without a success for ${duration(windowMs)} (last: ${what}).`,
  );
  // The last attempt (or the endpoint disabled now): the delivery has finally failed.
  if (disabled || attempt >= deps.config.webhooks.attempts) await ended();
  if (disabled) {
    metrics.disabled.inc();
    throw new UnrecoverableError(`webhook endpoint ${endpointId} disabled (last: ${what})`);
  }
  throw new Error(`webhook delivery failed: ${what}`);
}
