// The three HTTP services in-process on the test database (tests/full-stack.ts serves them), for
// the fuzz, fault and tenancy tests, with a raw HTTP client: these tests send what fetch()
// refuses to send (TRACE, unknown methods, corrupt Content-Encoding bodies) and must see exactly
// what the server wrote.
import { ClientRequest, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { useFullStack } from '../full-stack';

/**
 * Both APIs and the credit-service for the enclosing describe block, on a queue prefix of their
 * own that no worker consumes (queued work stays queued; see the tenancy test for draining it).
 */
export function serveAll(queuePrefix: string) {
  beforeAll(() => {
    // These tests must see what the server wrote. nock replaces node:http's ClientRequest for the
    // whole jest worker; a test file that loaded it and did not `nock.restore()` at its end would
    // put its socket stand-in under every request here (its errors on an early answer surfaced
    // as an unexplained `write EPIPE`).
    if (ClientRequest.name !== 'ClientRequest') {
      throw new Error(
        `node:http is still intercepted (${ClientRequest.name}): an earlier test file of this jest ` +
          'worker loaded nock without nock.restore() in its afterAll',
      );
    }
  });
  const { catalogue, wl, credit } = useFullStack(queuePrefix, {
    serve: ['catalogue', 'wl', 'credit'],
    background: false,
  });
  return { catalogue, whiteLabel: wl, credit };
}

export interface RawReply {
  status: number;
  contentType: string;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One request on a fresh connection, answered or failed within 30 s.
 *
 * The connection is asked to stay open: a server that answers before reading the whole body (a
 * 401, 413 or 415 is decided from the headers) then reads and drops the rest, where on a
 * `Connection: close` request it closes at once and a client still writing the body meets
 * EPIPE or a reset instead of the answer (seen on a loaded machine, with nock's socket in
 * between). A write error after the answer has arrived is the same race and is ignored.
 */
export function rawRequest(baseUrl: string, req: RawRequest): Promise<RawReply> {
  const url = new URL(baseUrl);
  const what = `${req.method} ${req.path}`;
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          Connection: 'keep-alive',
          ...(req.body !== undefined && { 'Content-Length': String(Buffer.byteLength(req.body)) }),
          ...req.headers,
        },
        agent: false,
        timeout: 30_000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (err) => reject(new Error(`${what}: ${err.message} while reading the answer`)));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${what}: no answer in 30 s`)));
    outgoing.on('error', (err) => {
      if (!answered) reject(new Error(`${what}: ${err.message}`));
    });
    outgoing.end(req.body);
  });
}

/**
 * A request written byte for byte on a plain socket, for what an HTTP client library will not
 * send or may rewrite (a method HTTP does not know): nock, once another test file of the same
 * jest worker has activated it, intercepts node:http requests, and such a request never reached
 * the server. Reads until the server closes the connection.
 */
export function rawSocketRequest(baseUrl: string, method: string, path: string): Promise<RawReply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    });
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        contentType: headers['content-type'] ?? '',
        text: body,
        headers,
      });
    });
  });
}

/** The JSON body of a reply, or undefined when it is not JSON (the caller asserts on that). */
export function jsonOf(reply: RawReply): unknown {
  if (!/^application\/json\b/i.test(reply.contentType)) return undefined;
  try {
    return JSON.parse(reply.text) as unknown;
  } catch {
    return undefined;
  }
}
