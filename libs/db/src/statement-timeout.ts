/**
 * DATABASE_STATEMENT_TIMEOUT_MS applied so that it holds through a transaction-mode pooler
 * (PgBouncer `pool_mode = transaction`) as well as on a direct connection, with no extra round
 * trip (docs/decisions/0050-pgbouncer-in-transaction-mode.md, "PgBouncer in transaction mode"):
 *
 * - a transaction starts with `BEGIN; SET LOCAL statement_timeout = …`, one simple-protocol
 *   message: the server enforces the limit on every statement of the transaction, on whichever
 *   server connection the pooler lent for it, and forgets it at COMMIT/ROLLBACK;
 * - a statement outside a transaction (its own implicit transaction) is cancelled by the
 *   client when it outlives the limit: a CancelRequest to the same host and port, which a
 *   pooler forwards to the server connection running it. The server stops the statement and
 *   answers 57014 (query_canceled), as it would for its own statement_timeout.
 *
 * Not a startup parameter: PgBouncer refuses `statement_timeout` there ("unsupported startup
 * parameter"). Not a `SET` when the pool opens a connection: behind a transaction pooler that
 * sets one server connection (whichever served the SET), not the ones later statements run on.
 */
import { connect, type Socket } from 'node:net';
import type { Knex } from 'knex';
import type pg from 'pg';

/* eslint-disable @typescript-eslint/no-require-imports -- knex ships its dialects without types */
const ClientPG = require('knex/lib/dialects/postgres') as new (config: Knex.Config) => KnexPgClient;
const TransactionPG = require('knex/lib/dialects/postgres/execution/pg-transaction') as new (
  ...args: unknown[]
) => KnexPgTransaction;
/* eslint-enable @typescript-eslint/no-require-imports */

interface KnexPgClient {
  _query(connection: PgConnection, obj: { sql: string }): Promise<unknown>;
  transaction(...args: unknown[]): unknown;
}
interface KnexPgTransaction {
  isolationLevel?: string;
  readOnly?: boolean;
  query(conn: PgConnection, sql: string): Promise<unknown>;
}
/** A node-postgres client as knex holds it (knex marks a connection lent to a transaction). */
export type PgConnection = pg.Client & {
  __knexTxId?: string;
  /** Set by knex when the connection ended: its pool then destroys it instead of lending it again. */
  __knex__disposed?: unknown;
  processID: number | null;
  secretKey: number | null;
};

/** The SQL that opens a transaction of `trx` with the statement timeout in force. */
function beginSql(trx: KnexPgTransaction, timeoutMs: number): string {
  const mode = [
    trx.isolationLevel ? `ISOLATION LEVEL ${trx.isolationLevel}` : '',
    trx.readOnly ? 'READ ONLY' : '',
  ]
    .join(' ')
    .trim();
  return `BEGIN${mode ? ` TRANSACTION ${mode}` : ''}; SET LOCAL statement_timeout = ${Math.trunc(timeoutMs)}`;
}

/**
 * Asks the server (or the pooler in front of it) to cancel what `client` runs now: the
 * protocol's CancelRequest on a connection of its own, which the server closes once it has acted.
 */
export function sendCancelRequest(client: PgConnection): void {
  if (client.processID === null || client.secretKey === null) return;
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80877102, 4); // the CancelRequest code (1234 << 16 | 5678)
  message.writeInt32BE(client.processID, 8);
  message.writeInt32BE(client.secretKey, 12);
  const host = client.host;
  const socket: Socket = host.startsWith('/')
    ? connect(`${host}/.s.PGSQL.${client.port}`)
    : connect(client.port, host);
  // The sender waits for the peer to close: PgBouncer forwards the request over a connection of
  // its own and drops it when the sender hangs up first.
  socket.setTimeout(5_000, () => socket.destroy());
  socket.on('error', () => undefined);
  socket.on('end', () => socket.destroy());
  socket.on('connect', () => socket.write(message));
}

/**
 * A knex client class for `pg` that applies `timeoutMs` as described above (0: no limit, and
 * then it behaves exactly as knex's own).
 */
export function pgClientWithStatementTimeout(timeoutMs: number): typeof Knex.Client {
  class Transaction extends TransactionPG {
    begin(conn: PgConnection): Promise<unknown> {
      return this.query(conn, beginSql(this, timeoutMs));
    }
  }

  class Client extends ClientPG {
    /** The limit, for statements sent outside knex's query path (copy-rows.ts). */
    readonly statementTimeoutMs = timeoutMs;

    override transaction(...args: unknown[]): unknown {
      return timeoutMs > 0 ? new Transaction(this, ...args) : super.transaction(...args);
    }

    override _query(connection: PgConnection, obj: { sql: string }): Promise<unknown> {
      // Inside a transaction the server enforces SET LOCAL; BEGIN itself runs marked too.
      if (timeoutMs <= 0 || connection.__knexTxId !== undefined) return super._query(connection, obj);
      const timer = setTimeout(() => sendCancelRequest(connection), timeoutMs);
      return super._query(connection, obj).finally(() => clearTimeout(timer));
    }
  }
  // knex's `client` option takes its own (typed) Client class; this one is its untyped pg dialect.
  return Client as unknown as typeof Knex.Client;
}

/** The statement timeout of a Knex whose client is pgClientWithStatementTimeout's (0: none or another client). */
export function statementTimeoutOf(db: Knex): number {
  const client = db.client as { statementTimeoutMs?: unknown };
  return typeof client.statementTimeoutMs === 'number' ? client.statementTimeoutMs : 0;
}
