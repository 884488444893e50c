/**
 * Fetches the `search_web` pages of a generation job and extracts their readable text.
 * Only http/https; every address a host resolves to must be public (libs/egress), checked
 * again for every redirect target (redirects are followed by hand, at most `maxRedirects`);
 * one time limit per URL covers DNS, redirects and the body; the body is read as a stream and
 * cut at `maxBytes`; only text/html and text/plain are read. Nothing here throws: every URL ends
 * up either in `pages` or in `refused` with a short reason.
 *
 * Fetch resolves the host again when it connects: with `dispatcher` (libs/egress
 * `egressDispatcher`, what the worker passes) the same rules apply to the addresses it connects
 * to, so a DNS answer that changes after the check (DNS rebinding) is refused too.
 */
import { isRecord } from '@catalogue/config';
import { checkOutboundHost, defaultLookup, EgressRefusal, parseOutboundUrl } from '@catalogue/egress';
import type { Dispatcher } from 'undici';
import { htmlBlocks, plainBlocks } from './extract';

export interface ResearchOptions {
  /** Time limit per URL (DNS, redirects and body together). */
  timeoutMs: number;
  /** Bytes of a body read at most; the rest is not downloaded. */
  maxBytes: number;
  /** URLs fetched at most; further ones are refused. */
  maxUrls: number;
  /** Lets loopback addresses through (tests and local development only). */
  allowLoopback: boolean;
  /** Resolves a host name to its addresses (default: `dns.lookup(host, {all: true})`). */
  lookup?: (host: string) => Promise<string[]>;
  /** Characters of text kept per page (default 20,000). */
  maxTextChars?: number;
  /** Pages fetched at the same time (default 3). */
  concurrency?: number;
  /** Redirects followed per URL (default 3). */
  maxRedirects?: number;
  userAgent?: string;
  /** For tests; the global fetch by default. */
  fetch?: typeof fetch;
  /** The HTTP client fetch uses: connects only to addresses the rules allow (egressDispatcher). */
  dispatcher?: Dispatcher;
  /** Stops everything (e.g. on shutdown); unfinished URLs are refused as aborted. */
  signal?: AbortSignal;
}

export interface ResearchPage {
  url: string;
  text: string;
}

export interface ResearchRefusal {
  url: string;
  reason: string;
}

export interface ResearchResult {
  pages: ResearchPage[];
  refused: ResearchRefusal[];
}

const TEXT_TYPES = new Set(['text/html', 'text/plain']);

/** The egress rules' refusal (scheme, credentials, addresses) and this fetcher's own. */
const Refusal = EgressRefusal;

/** Rejects as soon as `signal` aborts (dns.lookup cannot be cancelled, only abandoned). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** The egress rules (libs/egress) for one URL's host, the lookup abandoned on abort. */
async function checkHost(
  url: URL,
  opts: ResearchOptions,
  resolve: (host: string) => Promise<string[]>,
  signal: AbortSignal,
): Promise<void> {
  await checkOutboundHost(url, { allowLoopback: opts.allowLoopback }, resolve, (p) =>
    untilAborted(p, signal),
  );
}

/** The first `maxBytes` of a body; the rest is cancelled, not downloaded. */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (body === null) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength >= maxBytes) {
      chunks.push(value.subarray(0, maxBytes - total));
      total = maxBytes;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function decode(bytes: Uint8Array, contentType: string, html: boolean): string {
  let charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (charset === undefined && html) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
    charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Blocks joined by new lines, cut to `max` characters (between blocks where possible). */
function capText(blocks: string[], max: number): string {
  const kept: string[] = [];
  let used = 0;
  for (const block of blocks) {
    const room = max - used - (kept.length > 0 ? 1 : 0);
    if (room <= 0) break;
    const points = [...block];
    if (points.length <= room) {
      kept.push(block);
      used += points.length + (kept.length > 1 ? 1 : 0);
    } else {
      kept.push(points.slice(0, room).join('').trimEnd());
      break;
    }
  }
  return kept.join('\n');
}

async function cancelBody(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

async function fetchPage(raw: string, opts: ResearchOptions): Promise<string> {
  const doFetch = opts.fetch ?? fetch;
  const resolve = opts.lookup ?? defaultLookup;
  const maxRedirects = opts.maxRedirects ?? 3;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs);
  const onAbort = (): void => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let url = parseOutboundUrl(raw);
    for (let redirects = 0; ; redirects++) {
      await checkHost(url, opts, resolve, controller.signal);
      const res = await doFetch(url.href, {
        redirect: 'manual',
        signal: controller.signal,
        ...(opts.dispatcher && { dispatcher: opts.dispatcher }),
        headers: {
          accept: 'text/html, text/plain;q=0.9',
          'user-agent': opts.userAgent ?? 'catalogue-content-service research fetcher',
        },
      });
      if (res.status >= 300 && res.status < 400) {
        await cancelBody(res);
        const location = res.headers.get('location');
        if (location === null) throw new Refusal(`HTTP ${res.status} without a location`);
        if (redirects >= maxRedirects) throw new Refusal(`more than ${maxRedirects} redirects`);
        url = parseOutboundUrl(location, url);
        continue;
      }
      if (!res.ok) {
        await cancelBody(res);
        throw new Refusal(`HTTP ${res.status}`);
      }
      const contentType = res.headers.get('content-type') ?? '';
      const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      if (!TEXT_TYPES.has(mediaType)) {
        await cancelBody(res);
        throw new Refusal(`content type ${mediaType || 'missing'} not allowed`);
      }
      const html = mediaType === 'text/html';
      const body = decode(await readCapped(res.body, opts.maxBytes), contentType, html);
      const blocks = html ? htmlBlocks(body) : plainBlocks(body);
      const text = capText(blocks, opts.maxTextChars ?? 20_000);
      if (text === '') throw new Refusal('no readable text');
      return text;
    }
  } catch (err) {
    if (err instanceof Refusal) throw err;
    // Refused at the connection: the host answered otherwise than at the check.
    const cause = isRecord(err) ? err.cause : undefined;
    if (cause instanceof Refusal) throw cause;
    if (timedOut) throw new Refusal(`timed out after ${opts.timeoutMs} ms`);
    if (opts.signal?.aborted) throw new Refusal('aborted');
    const code = isRecord(cause) ? cause.code : undefined;
    throw new Refusal(`fetch failed${typeof code === 'string' ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Fetches up to `maxUrls` distinct URLs, a few at a time. Pages and refusals keep the order of
 * `urls`; a page's `url` is the URL as given (not where redirects led).
 */
export async function fetchResearch(urls: readonly string[], opts: ResearchOptions): Promise<ResearchResult> {
  const unique = [...new Set(urls)];
  const chosen = unique.slice(0, Math.max(0, opts.maxUrls));
  const outcomes: Array<ResearchPage | ResearchRefusal> = new Array(chosen.length);
  let next = 0;
  const work = async (): Promise<void> => {
    for (let index = next++; index < chosen.length; index = next++) {
      const url = chosen[index] ?? '';
      try {
        outcomes[index] = { url, text: await fetchPage(url, opts) };
      } catch (err) {
        outcomes[index] = { url, reason: err instanceof Refusal ? err.message : 'failed' };
      }
    }
  };
  const workers = Math.max(1, Math.min(opts.concurrency ?? 3, chosen.length));
  await Promise.all(Array.from({ length: workers }, work));
  const pages: ResearchPage[] = [];
  const refused: ResearchRefusal[] = [];
  for (const outcome of outcomes) {
    if ('text' in outcome) pages.push(outcome);
    else refused.push(outcome);
  }
  for (const url of unique.slice(chosen.length)) {
    refused.push({ url, reason: `over the limit of ${opts.maxUrls} URLs` });
  }
  return { pages, refused };
}
