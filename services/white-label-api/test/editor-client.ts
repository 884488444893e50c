// Shared arrangement of the entity, design, fill-design, credit, prompt, widget and favourite
// tests: the service in-process, eshops of their own, and a client that checks every response
// against docs/openapi.yaml, as a host application's editor would call the API.
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  expectMatchesContract,
  makeEshop,
  serveServiceForTests,
  type EshopFixture,
} from '@catalogue/testing';
import { createApp } from '../src/app';
import { buildDeps, closeDeps } from '../src/deps';

export const ORIGIN = 'https://admin.editor.test';
export const BASE = '/api/v3/white-label';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response fields directly; the contract check validates shapes
export type Body = any;

export interface Reply {
  status: number;
  body: Body;
  headers: Headers;
}

export interface CallOptions {
  origin?: string | null;
  token?: string;
  /** More request headers (Idempotency-Key, X-Forwarded-For, …). */
  headers?: Record<string, string>;
}

/**
 * One white-label request as a host's editor sends it: the token and the allowed Origin unless
 * told otherwise, JSON in and out; every response is checked against docs/openapi.yaml.
 */
export async function wlRequest(
  serviceUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  opts: CallOptions = {},
): Promise<Reply> {
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  const res = await fetch(`${serviceUrl}${BASE}${path}`, {
    method,
    headers: {
      [WHITE_LABEL_TOKEN_HEADER]: opts.token ?? token,
      ...(origin !== null && { Origin: origin }),
      Accept: 'application/json',
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...opts.headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  expectMatchesContract(method, `${BASE}${path}`, res.status, parsed, res.headers.get('content-type'));
  return { status: res.status, body: parsed, headers: res.headers };
}

export function editorService() {
  const service = serveServiceForTests({ buildDeps, createApp, closeDeps });
  const request = (token: string, method: string, path: string, body?: unknown, opts?: CallOptions) =>
    wlRequest(service.url, token, method, path, body, opts);

  /** An eshop allowing ORIGIN, with a client of its white-label token. */
  async function shop(fixture: EshopFixture = {}) {
    const created = await makeEshop(service.deps.db, { origins: [ORIGIN], ...fixture });
    const token = created.whiteLabelToken;
    return {
      id: created.eshop.id,
      created,
      token,
      call: (method: string, path: string, body?: unknown, opts?: CallOptions) =>
        request(token, method, path, body, opts),
      get: (path: string, opts?: CallOptions) => request(token, 'GET', path, undefined, opts),
      post: (path: string, body?: unknown, opts?: CallOptions) => request(token, 'POST', path, body, opts),
      delete: (path: string, opts?: CallOptions) => request(token, 'DELETE', path, undefined, opts),
    };
  }

  return {
    get deps() {
      return service.deps;
    },
    get url() {
      return service.url;
    },
    shop,
  };
}

export type Shop = Awaited<ReturnType<ReturnType<typeof editorService>['shop']>>;

/** An eshop whose licence ended: every licensed operation must answer 403 and change nothing. */
export const EXPIRED = { licenceValidUntil: '2020-01-01' } as const;
export const LICENCE_ERROR = {
  error: 'The white-label licence of this eshop is not valid',
  code: 'licence_invalid',
};
