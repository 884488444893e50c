// An OpenAI-compatible chat-completions endpoint, served by the test or bench process as a
// self-hosted model would be (bench:bulk's provider scenario, the browser journey of bulk
// generation): each answer comes after a fixed delay (the model's time), and
// fills every widget the request's answer schema (`response_format` json_schema, as the worker
// sends it) offers, its texts numbered so that every answer is new. A script may answer 429 with
// `Retry-After` instead. It keeps what a figure needs: when each request arrived, and the most
// requests it held at once.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  enum?: number[];
  maxLength?: number;
  maxItems?: number;
}

/** What to answer the n-th request (1-based): `ok`, or 429 with Retry-After in seconds. */
export type FakeReply = { kind: 'ok' } | { kind: 'too_many'; retryAfterSeconds: number };

export interface FakeLlm {
  /** The base URL to configure as OPENAI_BASE_URL. */
  baseUrl: string;
  /** Arrival times (epoch ms) of the requests answered 200. */
  answered: number[];
  /** Requests answered 429. */
  refused: () => number;
  /** The most requests in progress at once. */
  peakInFlight: () => number;
  /** Forgets what it counted (between scenarios). */
  reset(): void;
  /** Stops serving (open connections closed). */
  close(): Promise<void>;
}

let answerNumber = 0;

/** A value of `node` (one of the answer schema's shapes): the widget's texts, one item. */
function instance(node: SchemaNode, role = 'text'): unknown {
  const types = [node.type ?? 'object'].flat();
  if (node.enum) return node.enum[0];
  if (types.includes('string')) {
    const text = `Bench ${role} ${answerNumber}: a sentence the model wrote for this item.`;
    return text.slice(0, node.maxLength ?? text.length);
  }
  if (types.includes('array')) return node.items ? [instance(node.items, role)] : [];
  if (types.includes('object') && node.properties) {
    return Object.fromEntries(
      Object.entries(node.properties).map(([key, value]) => [key, instance(value, key)]),
    );
  }
  return null;
}

/** The answer schema of a chat-completions request body (`response_format.json_schema.schema`). */
function schemaOf(request: unknown): SchemaNode {
  const path = ['response_format', 'json_schema', 'schema'];
  const found = path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? Reflect.get(node, key) : undefined),
    request,
  );
  return typeof found === 'object' && found !== null ? found : {};
}

function portOf(address: AddressInfo | string | null): number {
  if (address === null || typeof address === 'string')
    throw new Error('the fake model endpoint is not listening on TCP');
  return address.port;
}

/** `{"widgets": [...]}`: one of each widget the schema's `anyOf` offers. */
function answerOf(schema: SchemaNode): string {
  answerNumber += 1;
  const branches = schema.properties?.widgets?.items?.anyOf ?? [];
  return JSON.stringify({ widgets: branches.map((branch) => instance(branch)) });
}

export async function startFakeLlm(opts: {
  delayMs: number;
  reply?: (n: number) => FakeReply;
}): Promise<FakeLlm> {
  const answered: number[] = [];
  let refused = 0;
  let requests = 0;
  let inFlight = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const reply = opts.reply?.(++requests) ?? { kind: 'ok' };
      if (reply.kind === 'too_many') {
        refused += 1;
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(reply.retryAfterSeconds),
        });
        res.end(
          JSON.stringify({
            error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
          }),
        );
        return;
      }
      answered.push(Date.now());
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      const content = answerOf(schemaOf(JSON.parse(body)));
      setTimeout(() => {
        inFlight -= 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-bench-${answerNumber}`,
            object: 'chat.completion',
            model: 'bench-model',
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 800, completion_tokens: 400, total_tokens: 1200 },
          }),
        );
      }, opts.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${portOf(server.address())}/v1`,
    answered,
    refused: () => refused,
    peakInFlight: () => peak,
    reset() {
      answered.length = 0;
      refused = 0;
      requests = 0;
      peak = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
