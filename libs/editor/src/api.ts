/**
 * The v3 API as the editor calls it: the white-label token on every request, JSON both ways,
 * and every failure turned into an {@link ApiError} carrying the status, the body's own
 * message and its machine-readable `code` when the service sends one.
 */
import { isObject } from './guards';

export const TOKEN_HEADER = 'service-white-label-token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The message a body carries (`error` or `message`), or '' when it has none. */
function messageOf(body: unknown): string {
  if (!isObject(body)) return '';
  const { error, message } = body;
  if (typeof error === 'string') return error;
  if (typeof message === 'string') return message;
  return '';
}

function codeOf(body: unknown): string | undefined {
  const code = isObject(body) ? body.code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * The entity a content path is about (`{entity_id}/type/{entity_type}` of `/content/…`,
 * `/content/element-copy/…` or `/entity/…`), the key its content version is kept under.
 */
function entityKey(path: string): string | undefined {
  return /^\/(?:content(?:\/element-copy)?|entity)\/([^/?]+\/type\/[^/?]+)/.exec(path)?.[1];
}

export class Api {
  /**
   * The content version (ETag) of each entity as last read or written: every write of that
   * entity's content carries it as `If-Match`, so a write made from a view another tab, person
   * or program has changed since is refused (412) rather than applied over their change.
   */
  readonly etags = new Map<string, string>();

  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  /** A URL under the API's origin (the designs' preview images and pages are served there). */
  url(path: string): string {
    return new URL(path, this.base.endsWith('/') ? this.base : `${this.base}/`).toString();
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    const key = entityKey(path);
    const etag = method !== 'GET' && key ? this.etags.get(key) : undefined;
    try {
      res = await fetch(this.url(`api/v3/white-label${path}`), {
        method,
        headers: {
          [TOKEN_HEADER]: this.token,
          Accept: 'application/json',
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
          ...(etag && { 'If-Match': etag }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      // The browser tells a script nothing more: offline, DNS, or an origin refused without
      // CORS. The origin probe tells the last apart.
      if ((await this.originAllowed()) === false)
        throw new ApiError(403, `Origin ${location.origin} not allowed`, 'origin_not_allowed', undefined);
      throw new ApiError(0, '', 'network', undefined);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) throw new ApiError(res.status, messageOf(parsed), codeOf(parsed), parsed);
    // Only an answer that is the content (not a refusal's current version) moves the version.
    const answered = res.headers.get('ETag');
    if (key && answered) this.etags.set(key, answered);
    return parsed as T;
  }

  private probing: Promise<boolean | undefined> | undefined;

  /**
   * Whether some eshop allows this page's origin, as `GET /editor/v1/origin` (readable from any
   * origin, no preflight) answers; undefined when that cannot be reached either. Calls failing
   * together share one probe.
   */
  originAllowed(): Promise<boolean | undefined> {
    this.probing ??= fetch(this.url('editor/v1/origin'), { credentials: 'omit', cache: 'no-store' })
      .then((res): Promise<unknown> | undefined => (res.ok ? res.json() : undefined))
      .then((body) => (isObject(body) && typeof body.allowed === 'boolean' ? body.allowed : undefined))
      .catch(() => undefined)
      .finally(() => setTimeout(() => (this.probing = undefined), 1000));
    return this.probing;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body ?? {});
  }

  put<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PUT', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }
}
