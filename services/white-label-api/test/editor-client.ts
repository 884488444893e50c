// Shared arrangement of the entity, design, fill-design, credit, prompt, widget and favourite
// tests: the service in-process, eshops of their own, and a client that checks every response
// against docs/openapi.yaml, as a host application's editor would call the API.
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import {
  contractCaller,
  makeEshop,
  serveServiceForTests,
  type Answer,
  type Call,
  type CallOptions as ContractCallOptions,
  type EshopFixture,
} from '@catalogue/testing';
import { whiteLabelApi } from '../src/service';

export const ORIGIN = 'https://admin.editor.test';
export const BASE = '/api/v3/white-label';

/** One white-label answer (its body typed from docs/openapi.yaml by the path it answers). */
export type Reply<B = unknown> = Answer<B>;

/** A white-label call's options over the token and Origin a host's editor sends. */
export interface WlOptions {
  /** The Origin header; `null` sends none. */
  origin?: string | null;
  /** Another white-label token than the shop's. */
  token?: string;
}
export type CallOptions = WlOptions & ContractCallOptions;

/** Calls of the white-label API, paths under BASE (`call('GET', '/entity')`). */
export type WlCall = Call<typeof BASE, WlOptions>;

/**
 * White-label calls as a host's editor sends them: the token and the allowed Origin unless told
 * otherwise, JSON in and out; every answer is checked against docs/openapi.yaml.
 */
export function wlCaller(serviceUrl: string | (() => string), token: string): WlCall {
  return contractCaller({
    baseUrl: serviceUrl,
    prefix: BASE,
    headers: (opts?: CallOptions) => ({
      [WHITE_LABEL_TOKEN_HEADER]: opts?.token ?? token,
      Origin: opts?.origin === undefined ? ORIGIN : opts.origin,
    }),
  });
}

export function editorService() {
  const service = serveServiceForTests(whiteLabelApi);

  /** An eshop allowing ORIGIN, with a client of its white-label token. */
  async function shop(fixture: EshopFixture = {}) {
    const created = await makeEshop(service.deps.db, { origins: [ORIGIN], ...fixture });
    const token = created.whiteLabelToken;
    const call = wlCaller(() => service.url, token);
    return {
      id: created.eshop.id,
      created,
      token,
      call,
      get: <P extends string>(path: P, opts?: CallOptions) => call('GET', path, undefined, opts),
      post: <P extends string>(path: P, body?: unknown, opts?: CallOptions) => call('POST', path, body, opts),
      delete: <P extends string>(path: P, opts?: CallOptions) => call('DELETE', path, undefined, opts),
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
