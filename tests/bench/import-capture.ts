// What the catalogue API's v2 product import sends to PostgreSQL, statement by statement, as it
// goes over the wire (node-postgres' query calls: text and values): the import's transaction run
// in this process with the service's own code, then rolled back. import-equal-work.ts must send
// the same statements (checkEqualWork); nothing else of the request (auth, limiter, idempotency)
// is part of it.
import pg from 'pg';
import { createKnex, eventsRepository, type Knex } from '@catalogue/db';
import { importEntities, type WriteItem } from '@catalogue/catalogue-api/dist/services/entity-import';
import { checkItems } from '@catalogue/catalogue-api/dist/services/item-check';

export interface Statement {
  text: string;
  values: unknown[];
  /** The client that sent it (other clients of the process may send meanwhile: pool checks). */
  client?: pg.Client;
}

/** Records every query any node-postgres client of this process sends while `run` runs. */
export async function recordStatements<T>(
  run: () => Promise<T>,
): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const original = pg.Client.prototype.query;
  // Both sides use the one pg module (knex's dialect loads it too).
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
    if (typeof first === 'string')
      statements.push({ text: first, values: Array.isArray(second) ? second : [], client: this });
    else if (first && typeof first === 'object' && 'text' in first)
      statements.push({ text: first.text, values: first.values ?? [], client: this });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await run(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

/** The service's default statement timeout (DATABASE_STATEMENT_TIMEOUT_MS), set with every BEGIN. */
export const SERVICE_STATEMENT_TIMEOUT_MS = 30_000;

/** A Knex as the service makes it (the statement timeout its BEGIN sets). */
export function serviceKnex(url: string): Knex {
  return createKnex({
    url,
    poolMin: 0,
    poolMax: 1,
    statementTimeoutMs: SERVICE_STATEMENT_TIMEOUT_MS,
    applicationName: 'bench-capture',
  });
}

class Rollback extends Error {}

/**
 * The statements of one v2 product import of `items` into `eshopId` (the database part of
 * importV2: the checked items' import, the events' append, in one transaction), rolled back.
 */
export async function serviceImportStatements(
  db: Knex,
  eshopId: number,
  items: unknown[],
): Promise<Statement[]> {
  const { statements } = await recordStatements(async () => {
    const checked = checkItems<WriteItem>(items, { version: 'v2', type: 'product', multiImport: false });
    if (checked.errors.length) throw new Error(`the capture's items: ${JSON.stringify(checked.errors)}`);
    await db
      .transaction(async (trx) => {
        const written = await importEntities(trx, eshopId, 'product', checked.accepted);
        await eventsRepository.append(trx, eshopId, written.events);
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
  });
  return statements;
}

/**
 * The equal-work handler sends the service's statements: the same texts and values in the same
 * order, for an import of `items` (new products) into `eshopId`; both rolled back. Stops the run
 * at the first difference. Returns the number of statements (BEGIN and ROLLBACK included).
 */
export async function checkEqualWork(
  url: string,
  eshopId: number,
  items: Record<string, unknown>[],
  equalWork: (client: pg.Client) => Promise<unknown>,
): Promise<number> {
  const db = serviceKnex(url);
  let service: Statement[];
  try {
    // The rolled-back insert took product ids: the handler's run takes the same ones again.
    const { rows } = await db.raw<{ rows: { seq: string }[] }>(
      `select pg_get_serial_sequence('products', 'id') as seq`,
    );
    const seq = rows[0]!.seq;
    const before = await db.raw<{ rows: { last_value: string; is_called: boolean }[] }>(
      `select last_value, is_called from ${seq}`,
    );
    service = await serviceImportStatements(db, eshopId, items);
    await db.raw('select setval(?::regclass, ?, ?)', [
      seq,
      before.rows[0]!.last_value,
      before.rows[0]!.is_called,
    ]);
  } finally {
    await db.destroy();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let handler: Statement[];
  try {
    ({ statements: handler } = await recordStatements(() => equalWork(client)));
  } finally {
    await client.end();
  }
  // The transaction's own connection: the one that sent BEGIN (a pool may check others meanwhile).
  const own = (list: Statement[]) => {
    const client = list.find((s) => s.text.startsWith('BEGIN'))?.client;
    return list.filter((s) => s.client === client && s.text !== 'select version();');
  };
  const ours = own(service);
  handler = own(handler);
  const describe = (s: Statement | undefined) =>
    s ? `${s.text}\n  values: ${JSON.stringify(s.values).slice(0, 300)}` : '(none)';
  for (let i = 0; i < Math.max(ours.length, handler.length); i++) {
    const a = ours[i];
    const b = handler[i];
    if (a?.text !== b?.text || JSON.stringify(a?.values) !== JSON.stringify(b?.values)) {
      throw new Error(
        `tests/bench/import-equal-work.ts does not send the service's statements; statement ${i + 1}:\n` +
          `service: ${describe(a)}\nhandler: ${describe(b)}`,
      );
    }
  }
  return ours.length;
}
