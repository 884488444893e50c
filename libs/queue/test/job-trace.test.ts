// Every job continues the trace of the code that queued it, writes one info line when an attempt
// ends (ids, counts and times, never the payload's other fields nor an error's text), and its
// duration sample keeps the trace id as an exemplar.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { createLogger } from '@catalogue/logger';
import { createWorkers, enqueue, type JobPayloads } from '@catalogue/queue';
import { eventually } from '@catalogue/testing';
import { inSpan, SpanKind, startTracing } from '@catalogue/tracing';
import { FAST_RETRY, harness } from './queue-fixtures';

// Before the harness: queues and workers take BullMQ's telemetry when they are made.
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ service: 'queue-tests', exporter });
afterAll(() => tracing.shutdown());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines, read field by field
type Line = Record<string, any>;
const lines: Line[] = [];
const raw: string[] = [];
const logger = createLogger({
  service: 'test',
  level: 'info',
  destination: {
    write: (line: string) => {
      raw.push(line);
      lines.push(JSON.parse(line) as Line);
    },
  },
});
const SECRET = 'tok_live_do_not_log_0123456789';

const h = harness();
h.workers.push(
  ...createWorkers({
    queues: ['generate'],
    handlers: {
      generate: async (job) => {
        logger.info({ job_id: job.id }, 'inside the handler');
        if ((job.data as { fail?: boolean }).fail) throw new Error(`provider said no to ${SECRET}`);
        return { done: true };
      },
    },
    connection: h.connection,
    prefix: h.prefix,
    concurrency: 1,
    logger,
    metrics: h.metrics,
  }),
);

/** Queues a `generate` job inside a request-like span; returns the span's trace id. */
async function queueInTrace(
  // Fields beyond the payload's: what the job's log lines must leave out.
  data: JobPayloads['generate'] & Record<string, unknown>,
  opts = {},
): Promise<{ traceId: string; jobId: string }> {
  return inSpan(
    'POST /test',
    {},
    async (span) => {
      const jobId = await enqueue(h.queues, 'generate', data, opts);
      return { traceId: span.spanContext().traceId, jobId: jobId! };
    },
    SpanKind.SERVER,
  );
}

const finished = (jobId: string) => lines.filter((l) => l.msg === 'job finished' && l.job_id === jobId);

test('when a queued job completes, then its one info line and its handler lines carry the trace of the code that queued it, and no payload secret', async () => {
  // A field the logger's redaction does not know: only the line's own choice of fields keeps it out.
  const { traceId, jobId } = await queueInTrace({ eshop_id: 42, job_id: 7, receiver_secret: SECRET });
  await eventually(() => expect(finished(jobId)).toHaveLength(1), 10_000);

  const [line] = finished(jobId);
  expect(line).toMatchObject({
    level: 30,
    queue: 'generate',
    job_id: jobId,
    eshop_id: 42,
    outcome: 'completed',
    attempts: 1,
    duration_ms: expect.any(Number),
    queued_ms: expect.any(Number),
    trace_id: traceId,
    span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
  });
  // The line's span is the job's consumer span, a child of the add under the request.
  const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const consumer = spans.find((s) => s.name === 'process generate')!;
  expect(line!.span_id).toBe(consumer.spanContext().spanId);
  // generate is a fair queue: its jobs are added in bulk, each with its place in its eshop's line.
  const add = spans.find((s) => s.name === 'addBulk generate')!;
  expect(consumer.parentSpanContext?.spanId).toBe(add.spanContext().spanId);
  const inside = lines.find((l) => l.msg === 'inside the handler' && l.job_id === jobId);
  expect(inside).toMatchObject({ trace_id: traceId, span_id: consumer.spanContext().spanId });
  // The duration sample leads to the trace.
  const { values } = await h.metrics.jobDuration.get();
  const exemplars = values.map((v) => (v as { exemplar?: { labelSet: Record<string, string> } }).exemplar);
  expect(exemplars.some((e) => e?.labelSet.trace_id === traceId)).toBe(true);
  expect(raw.join('\n')).not.toContain(SECRET);
});

test('when a job fails and is retried, then each attempt writes its info line with its outcome and attempt, and the error text stays out of it', async () => {
  const { traceId, jobId } = await queueInTrace({ eshop_id: 43, job_id: 8, fail: true }, FAST_RETRY);
  await eventually(() => expect(finished(jobId)).toHaveLength(2), 10_000);

  expect(finished(jobId).map((l) => [l.outcome, l.attempts, l.trace_id])).toEqual([
    ['retried', 1, traceId],
    ['failed', 2, traceId],
  ]);
  expect(JSON.stringify(finished(jobId))).not.toContain(SECRET);
});
