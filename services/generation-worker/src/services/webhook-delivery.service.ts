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
import { isRecord, type Config } from '@catalogue/config';
import { eventsRepository, webhooksRepository, type Knex } from '@catalogue/db';
import {
  checkOutboundHost,
  egressDispatcher,
  EgressRefusal,
  parseOutboundUrl,
  type EgressPolicy,
  type Lookup,
} from '@catalogue/egress';
import type { JobPayloads } from '@catalogue/queue';
import { inSpan, SpanKind, SpanStatusCode, traceHeaders } from '@catalogue/tracing';
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

/** Time limit of connecting to a receiver: half of an attempt's (at least 100 ms). */
export function webhookConnectTimeoutMs(timeoutMs: number): number {
  return Math.max(100, Math.floor(timeoutMs / 2));
}

/**
 * The HTTP client of deliveries: connects only where `policy` allows, and gives the connection
 * half the attempt, so a port nobody answers on (dropped by a network policy) fails as "could
 * not connect", not as a receiver that did not answer. `resolve`: DNS of the connection (tests).
 */
export function webhookDispatcher(policy: EgressPolicy, timeoutMs: number, resolve?: Lookup): Dispatcher {
  return egressDispatcher(policy, resolve, { connectTimeoutMs: webhookConnectTimeoutMs(timeoutMs) });
}

/**
 * The delivery log's words for an attempt that got no answer because of the network, naming
 * where it went and what usually causes it. A network policy of the service (the Helm chart's
 * NetworkPolicy lets the worker reach ports 80 and 443 unless the operator opens others) shows
 * as a refused or unanswered connection; the eshop learns to check its port or ask the operator.
 */
export function networkError(code: string | undefined, target: URL, connectTimeoutMs: number): string {
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const where = `${target.hostname}:${port}`;
  const policy = `the service's network policy may not allow port ${port} (ask the operator), or`;
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where} (ECONNREFUSED): ${policy} nothing listens there`;
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect to ${where} within ${connectTimeoutMs} ms: ${policy} a firewall drops it, or the host is down`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no route to ${where} (${code}): ${policy} the network is down`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host name ${target.hostname} does not resolve (${code})`;
    default:
      return `request failed${code === undefined ? '' : ` (${code})`}`;
  }
}

/**
 * The system or undici code of a failed fetch (`ECONNREFUSED`, `UND_ERR_CONNECT_TIMEOUT`…):
 * the cause's `code`, else read from its text (fetch re-wraps a cause it does not recognise as
 * an Error of its own realm into `Error("<name>: <message>")`, which drops the code).
 */
function connectionCode(err: unknown): string | undefined {
  const cause = isRecord(err) ? err.cause : undefined;
  if (isRecord(cause) && typeof cause.code === 'string') return cause.code;
  const text = String(cause ?? '');
  if (text.includes('ConnectTimeoutError')) return 'UND_ERR_CONNECT_TIMEOUT';
  return /\b(E[A-Z]{4,}|UND_ERR_[A-Z_]+)\b/.exec(text)?.[1];
}

/** One attempt: POST the body, with the attempt's time limit (exported for tests). */
export async function send(
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
    const refusal = err instanceof EgressRefusal ? err : isRecord(err) ? err.cause : undefined;
    if (refusal instanceof EgressRefusal)
      return { statusCode: null, error: `refused: ${refusal.message}`, responseExcerpt: null };
    if (signal.aborted)
      return {
        statusCode: null,
        error: `timed out after ${timeoutMs} ms (connected, but no complete answer in time)`,
        responseExcerpt: null,
      };
    let target: URL | undefined;
    try {
      target = new URL(url);
    } catch {
      target = undefined;
    }
    return {
      statusCode: null,
      error:
        target === undefined
          ? 'request failed'
          : networkError(connectionCode(err), target, webhookConnectTimeoutMs(timeoutMs)),
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
    // During a rotation's overlap window both secrets sign (docs/decisions/0046-webhook-secret-rotation.md, "Webhook secret rotation").
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
      // The receiver may join the trace: `traceparent` names this span (README, "Webhooks").
      const attempted = await send(deps, target.url, { ...headers, ...traceHeaders() }, body);
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
