/**
 * A dedicated connection that LISTENs on a channel and reconnects when it is lost. Whoever
 * relies on the notifications (a cache) must treat the time between `onDown` and the next
 * `onUp` as blind: notifications sent then are gone.
 */
import pg from 'pg';

export { AUTH_CHANGED_CHANNEL } from './migrations/20261125000100_auth_change_notify';

export interface ListenerHandlers {
  /** A notification arrived (its payload). */
  onNotify(payload: string): void;
  /** LISTEN is in place: notifications from now on arrive. */
  onUp(): void;
  /** The connection is lost or could not be made; retried after `retryMs`. */
  onDown(err: Error): void;
}

export interface Listener {
  close(): Promise<void>;
}

export function listen(
  opts: {
    url: string;
    channel: string;
    applicationName?: string;
    retryMs?: number;
    connectTimeoutMs?: number;
  },
  handlers: ListenerHandlers,
): Listener {
  const retryMs = opts.retryMs ?? 1_000;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const down = (err: Error): void => {
    const lost = client;
    client = undefined;
    lost?.removeAllListeners();
    lost?.on('error', () => undefined);
    void lost?.end().catch(() => undefined);
    handlers.onDown(err);
    if (!closed) {
      timer = setTimeout(connect, retryMs);
      timer.unref();
    }
  };

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({
      connectionString: opts.url,
      application_name: opts.applicationName ?? 'listener',
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
      // Detects a dead peer on an idle connection (the listener sends nothing of its own).
      keepAlive: true,
    });
    client = next;
    next.on('notification', (msg) => handlers.onNotify(msg.payload ?? ''));
    next.on('error', (err) => client === next && down(err));
    next.on('end', () => client === next && down(new Error('connection ended')));
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(opts.channel)}`);
      if (client === next && !closed) handlers.onUp();
    } catch (err) {
      if (client === next) down(err as Error);
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const last = client;
      client = undefined;
      last?.removeAllListeners();
      last?.on('error', () => undefined);
      await last?.end().catch(() => undefined);
    },
  };
}
