// Per-id statements keep probing their key when the statistics are stale
// (docs/decisions/0092-plan-proof-per-id-statements.md). In a database of its own, five eshops with a few rows each are
// analysed, then one new eshop gets tens of thousands of rows that no ANALYZE has seen (autovacuum
// off here, behind in production): the planner believes the new eshop has about one row. Each
// repository function below runs against that eshop in a rolled-back transaction, and every
// statement it sent is EXPLAINed as sent (same SQL, same bound values): each scan of the table must
// be an index scan of an index that probes the key, never a walk of the eshop's rows through
// another index that leads with eshop_id (by those statistics, a plan that costs the same).
//
// Between plans of equal cost the planner takes the one of the newest index, so a plan that holds
// only because its index happens to be newer than its rivals would turn bad after a REINDEX
// CONCURRENTLY of a rival. Each case therefore first copies the table's other indexes that lead
// with eshop_id (inside its transaction): the rivals are the newest.
import {
  createKnex,
  creditsRepository,
  favouritesRepository,
  generationJobsRepository,
  idempotencyRepository,
  listingRepository,
  migrateLatest,
  parametersRepository,
  productRelationsRepository,
  webhooksRepository,
  wlEntitiesRepository,
  type Knex,
} from '@catalogue/db';
import { freshSiblingDatabase, type SiblingDatabase } from '@catalogue/testing';

const OLD_ESHOPS = { from: 1, to: 5 };
const NEW_ESHOP = 6;

/**
 * Unanalysed entities of the new eshop the cases run with: the same statements with 50,000, then
 * with 100,000. Which of two plans of equal estimated cost wins depends on the sizes of their
 * indexes (their depth), so a statement that is not plan-proof fails at one size or the other.
 */
const SIZES = [50_000, 100_000];

/**
 * White-label entities E<first>..E<last> of the eshops, each with a generation job in `status`
 * and that job's credit reservation: the shapes of old and new eshops alike.
 */
const ENTITIES = [
  `insert into wl_entities (eshop_id, type, entity_id)
   select e, 'product', 'E' || n
   from generate_series(:from::int, :to::int) e, generate_series(:first::int, :last::int) n`,
  `insert into generation_jobs (eshop_id, entity_type, entity_id, design_id, status, lang)
   select eshop_id, type, entity_id, (select id from designs), :status::text, 'default' from wl_entities
   where eshop_id between :from::int and :to::int and substr(entity_id, 2)::int between :first::int and :last::int`,
  `insert into credit_ledger (eshop_id, kind, amount, reserved_delta, job_id)
   select eshop_id, 'reservation', 0, 1, id from generation_jobs
   where eshop_id between :from::int and :to::int and substr(entity_id, 2)::int between :first::int and :last::int`,
];

/**
 * Per eshop: `rows` favourites, listing rows (one batch) and idempotency keys; `endpoints` webhook
 * endpoints, each with `perEndpoint` events delivered (the full log is 1,000) and as many pending
 * redeliveries.
 */
const OTHERS = [
  `insert into widget_favourites (eshop_id, name, widget_id)
   select e, 'F' || n, (select id from widgets)
   from generate_series(:from::int, :to::int) e, generate_series(1, :rows::int) n`,
  `insert into listing_batches (eshop_id, format, rows_total)
   select e, 'json', :rows::int from generate_series(:from::int, :to::int) e`,
  `insert into listing_rows (eshop_id, batch_id, external_id)
   select b.eshop_id, b.id, 'L' || n
   from listing_batches b, generate_series(1, :rows::int) n where b.eshop_id between :from::int and :to::int`,
  `insert into idempotency_keys (eshop_id, key, fingerprint, lock_id, locked_until, expires_at)
   select e, 'K' || n, repeat('0', 64), gen_random_uuid(), now(), now() + interval '1 day'
   from generate_series(:from::int, :to::int) e, generate_series(1, :rows::int) n`,
  `insert into event_sequences (eshop_id, last_seq)
   select e, :perEndpoint::int from generate_series(:from::int, :to::int) e`,
  `insert into events (eshop_id, seq, type, entity_type, external_id)
   select e, s, 'item.created', 'product', 'E' || s
   from generate_series(:from::int, :to::int) e, generate_series(1, :perEndpoint::int) s`,
  `insert into webhook_endpoints (eshop_id, url, event_types, secret, last_seq)
   select e, 'https://hooks.test/' || n, '{item.created}', 'whsec_test', 0
   from generate_series(:from::int, :to::int) e, generate_series(1, :endpoints::int) n`,
  `insert into webhook_deliveries (eshop_id, endpoint_id, seq, attempt, status_code, latency_ms)
   select w.eshop_id, w.id, s, 1, 200, 5
   from webhook_endpoints w, generate_series(1, :perEndpoint::int) s where w.eshop_id between :from::int and :to::int`,
  `insert into webhook_redeliveries (eshop_id, endpoint_id, next_seq, to_seq)
   select w.eshop_id, w.id, s, s
   from webhook_endpoints w, generate_series(1, :perEndpoint::int) s where w.eshop_id between :from::int and :to::int`,
  `insert into webhook_pending_deliveries (eshop_id, endpoint_id, seq)
   select w.eshop_id, w.id, s
   from webhook_endpoints w, generate_series(1, :perEndpoint::int) s where w.eshop_id between :from::int and :to::int`,
  // Catalogue: `rows` products, a tenth as many parameters (at least 10) of 3 values each; every
  // product links one parameter as a whole and one value of another.
  `insert into products (eshop_id, external_id, name)
   select e, 'P' || n, '{"default":"P"}' from generate_series(:from::int, :to::int) e, generate_series(1, :rows::int) n`,
  `insert into parameters (eshop_id, external_id, name)
   select e, n, 'Parameter' from generate_series(:from::int, :to::int) e, generate_series(1, greatest(:rows::int / 10, 10)) n`,
  `insert into parameter_values (eshop_id, parameter_id, external_id, value)
   select p.eshop_id, p.id, p.external_id * 10 + v, 'Value'
   from parameters p, generate_series(1, 3) v where p.eshop_id between :from::int and :to::int`,
  `insert into product_parameter_values (eshop_id, product_id, position, parameter_id, value_id)
   select p.eshop_id, p.id, 1, par.id, null
   from products p join parameters par on par.eshop_id = p.eshop_id
     and par.external_id = 1 + substr(p.external_id, 2)::int % greatest(:rows::int / 10, 10)
   where p.eshop_id between :from::int and :to::int`,
  `insert into product_parameter_values (eshop_id, product_id, position, parameter_id, value_id)
   select p.eshop_id, p.id, 2, v.parameter_id, v.id
   from products p join parameters par on par.eshop_id = p.eshop_id
     and par.external_id = 1 + (substr(p.external_id, 2)::int + 1) % greatest(:rows::int / 10, 10)
   join parameter_values v on v.eshop_id = par.eshop_id and v.parameter_id = par.id and v.external_id = par.external_id * 10 + 2
   where p.eshop_id between :from::int and :to::int`,
];

const TABLES = [
  'wl_entities',
  'generation_jobs',
  'credit_ledger',
  'widget_favourites',
  'listing_batches',
  'listing_rows',
  'idempotency_keys',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_redeliveries',
  'webhook_pending_deliveries',
  'products',
  'parameters',
  'parameter_values',
  'product_parameter_values',
];

async function insert(
  db: Knex,
  statements: string[],
  values: Record<string, number | string>,
): Promise<void> {
  for (const statement of statements) await db.raw(statement, values);
}

/** Rows of the new eshop the statements name: each in the middle of its table's rows. */
interface Targets {
  entityId: string;
  entity: number;
  job: number;
  favourite: number;
  endpoint: number;
  redelivery: number;
  batch: number;
  listingRow: number;
  idempotencyKey: string;
  designId: number;
  product: number;
  /** External ids of a parameter and of one of its values. */
  parameter: number;
  value: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * What is wrong with the plan of a statement touching `table` (empty: nothing): a join that
 * hashes or merges, or a scan of the table that is not an index scan of one of `probes` with
 * every `keys` column in its index condition.
 */
function problems(plan: PlanNode, table: string, probes: string[], keys: string[]): string[] {
  const found: string[] = [];
  for (const node of nodes(plan)) {
    if (node['Node Type'] === 'Hash Join' || node['Node Type'] === 'Merge Join') {
      found.push(node['Node Type']);
    }
    if (node['Relation Name'] !== table || node['Node Type'] === 'ModifyTable') continue;
    const scan = `${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`;
    const cond = node['Index Cond'] ?? '';
    if (!['Index Scan', 'Index Only Scan'].includes(node['Node Type'])) found.push(scan);
    else if (!probes.includes(node['Index Name']!)) found.push(`${scan} (${cond})`);
    else {
      const missing = keys.filter((key) => !new RegExp(`\\b${key}\\b`).test(cond));
      if (missing.length) found.push(`${scan} (${cond}) without ${missing.join(', ')}`);
    }
  }
  return found;
}

/** Copies, created now, of the table's indexes that lead with eshop_id and do not probe the key. */
async function newestRivals(trx: Knex.Transaction, table: string, probes: string[]): Promise<void> {
  const { rows } = await trx.raw<{ rows: { indexname: string; indexdef: string }[] }>(
    "select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = ?",
    [table],
  );
  for (const { indexname, indexdef } of rows) {
    if (probes.includes(indexname) || !/ USING btree \(eshop_id\b/.test(indexdef)) continue;
    await trx.raw(indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON/, `CREATE $1INDEX ${indexname}_rival ON`));
  }
}

interface Case {
  /** The repository function, as the test names it. */
  name: string;
  table: string;
  run(trx: Knex.Transaction, t: Targets): Promise<unknown>;
  /** Indexes that probe the key. */
  probes: string[];
  /** Columns each probe's index condition names. */
  keys: string[];
}

const JOB_PROBES = ['generation_jobs_pkey'];
const ONE_RUNNING = ['generation_jobs_one_running', 'generation_jobs_eshop_id_entity_type_entity_id_index'];

/**
 * The linked values are probed by id (the primary key, or with eshop and parameter), a parameter's
 * first values by (eshop_id, parameter_id): each scan probes one of these keys.
 */
const PARAMETER_VALUE_PROBES = [
  'parameter_values_pkey',
  'parameter_values_eshop_id_parameter_id_id_unique',
  'parameter_values_eshop_id_parameter_id_external_id_unique',
];

/** Both lead with (eshop_id, product_id). */
const LINK_PROBES = ['product_parameter_values_pkey', 'product_parameter_values_link_unique'];

/** The render job's one read of its products' relations (brands, parameters, variants). */
const relations = (trx: Knex.Transaction, t: Targets) =>
  productRelationsRepository.forProducts(trx, NEW_ESHOP, [{ id: t.product, brandId: null }]);

const CASES: Case[] = [
  {
    name: 'productRelationsRepository.forProducts (its links)',
    table: 'product_parameter_values',
    run: relations,
    probes: LINK_PROBES,
    keys: ['product_id'],
  },
  {
    name: 'productRelationsRepository.forProducts (the linked parameters)',
    table: 'parameters',
    run: relations,
    probes: ['parameters_pkey'],
    keys: ['id'],
  },
  {
    name: 'productRelationsRepository.forProducts (the linked values)',
    table: 'parameter_values',
    run: relations,
    probes: PARAMETER_VALUE_PROBES,
    keys: [],
  },
  {
    name: 'productRelationsRepository.replaceLinks (its delete)',
    table: 'product_parameter_values',
    run: (trx, t) => productRelationsRepository.replaceLinks(trx, NEW_ESHOP, new Map([[t.product, []]])),
    probes: LINK_PROBES,
    keys: ['product_id'],
  },
  {
    name: 'parametersRepository.lookup (values by id)',
    table: 'parameter_values',
    run: (trx, t) => parametersRepository.lookup(trx, NEW_ESHOP, [], [t.value]),
    probes: ['parameter_values_eshop_id_external_id_index'],
    keys: ['external_id'],
  },
  {
    name: 'parametersRepository.lookup (parameters by id)',
    table: 'parameters',
    run: (trx, t) => parametersRepository.lookup(trx, NEW_ESHOP, [t.parameter], []),
    probes: ['parameters_eshop_id_external_id_unique'],
    keys: ['external_id'],
  },
  {
    name: 'wlEntitiesRepository.upsert (its read back by primary key)',
    table: 'wl_entities',
    run: (trx, t) =>
      wlEntitiesRepository.upsert(trx, NEW_ESHOP, {
        entityId: t.entityId,
        type: 'product',
        oldDescription: {},
        title: { default: 'Plan' },
      }),
    probes: ['wl_entities_pkey'],
    keys: ['id'],
  },
  {
    name: 'wlEntitiesRepository.find',
    table: 'wl_entities',
    run: (trx, t) => wlEntitiesRepository.find(trx, NEW_ESHOP, 'product', t.entityId),
    probes: ['wl_entities_eshop_id_type_entity_id_unique'],
    keys: ['eshop_id', 'type', 'entity_id'],
  },
  {
    name: 'wlEntitiesRepository.setDesign',
    table: 'wl_entities',
    run: (trx, t) => wlEntitiesRepository.setDesign(trx, NEW_ESHOP, t.entity, t.designId),
    probes: ['wl_entities_pkey'],
    keys: ['id'],
  },
  {
    name: 'generationJobsRepository.find (locking)',
    table: 'generation_jobs',
    run: (trx, t) => generationJobsRepository.find(trx, NEW_ESHOP, t.job, { lock: true }),
    probes: JOB_PROBES,
    keys: ['id'],
  },
  {
    name: 'generationJobsRepository.running',
    table: 'generation_jobs',
    run: (trx, t) => generationJobsRepository.running(trx, NEW_ESHOP, 'product', t.entityId),
    probes: ONE_RUNNING,
    keys: ['entity_type', 'entity_id'],
  },
  {
    name: 'generationJobsRepository.markRunning',
    table: 'generation_jobs',
    run: (trx, t) => generationJobsRepository.markRunning(trx, NEW_ESHOP, t.job),
    probes: JOB_PROBES,
    keys: ['id'],
  },
  {
    name: 'generationJobsRepository.finish',
    table: 'generation_jobs',
    run: (trx, t) =>
      generationJobsRepository.finish(trx, NEW_ESHOP, t.job, {
        status: 'failed',
        errorMessage: 'plan',
        provider: null,
        usage: null,
      }),
    probes: JOB_PROBES,
    keys: ['id'],
  },
  {
    name: 'generationJobsRepository.markSettled',
    table: 'generation_jobs',
    run: (trx, t) => generationJobsRepository.markSettled(trx, NEW_ESHOP, t.job),
    probes: JOB_PROBES,
    keys: ['id'],
  },
  {
    name: 'creditsRepository.jobCredits',
    table: 'credit_ledger',
    run: (trx, t) => creditsRepository.jobCredits(trx, NEW_ESHOP, t.job),
    probes: ['credit_ledger_job_kind_unique'],
    keys: ['job_id'],
  },
  {
    name: 'favouritesRepository.find',
    table: 'widget_favourites',
    run: (trx, t) => favouritesRepository.find(trx, NEW_ESHOP, t.favourite),
    probes: ['widget_favourites_pkey'],
    keys: ['id'],
  },
  {
    name: 'favouritesRepository.remove',
    table: 'widget_favourites',
    run: (trx, t) => favouritesRepository.remove(trx, NEW_ESHOP, t.favourite),
    probes: ['widget_favourites_pkey'],
    keys: ['id'],
  },
  {
    name: 'webhooksRepository.redeliveryQueued',
    table: 'webhook_redeliveries',
    run: (trx, t) => webhooksRepository.redeliveryQueued(trx, NEW_ESHOP, t.redelivery, 3),
    probes: ['webhook_redeliveries_pkey'],
    keys: ['id'],
  },
  {
    name: 'webhooksRepository.recordAttempt (its trim of the log)',
    table: 'webhook_deliveries',
    run: (trx, t) =>
      webhooksRepository.recordAttempt(trx, {
        eshopId: NEW_ESHOP,
        endpointId: t.endpoint,
        seq: 1,
        attempt: 2,
        statusCode: 200,
        error: null,
        latencyMs: 5,
        responseExcerpt: null,
      }),
    probes: ['webhook_deliveries_endpoint_id_id_index'],
    keys: ['endpoint_id'],
  },
  {
    name: 'webhooksRepository.claimDelivery (its claim)',
    table: 'webhook_pending_deliveries',
    run: (trx, t) => webhooksRepository.claimDelivery(trx, NEW_ESHOP, t.endpoint, 500),
    probes: ['webhook_pending_deliveries_pkey'],
    keys: ['endpoint_id', 'seq'],
  },
  {
    name: 'webhooksRepository.deliveryEnded',
    table: 'webhook_pending_deliveries',
    run: (trx, t) => webhooksRepository.deliveryEnded(trx, NEW_ESHOP, t.endpoint, 500),
    probes: ['webhook_pending_deliveries_pkey'],
    keys: ['endpoint_id', 'seq'],
  },
  {
    name: 'webhooksRepository.deliveries',
    table: 'webhook_deliveries',
    run: (trx, t) => webhooksRepository.deliveries(trx, NEW_ESHOP, t.endpoint, 50),
    probes: ['webhook_deliveries_endpoint_id_id_index'],
    keys: ['endpoint_id'],
  },
  {
    name: 'listingRepository.findRow (locking)',
    table: 'listing_rows',
    run: (trx, t) => listingRepository.findRow(trx, NEW_ESHOP, t.batch, t.listingRow, { lock: true }),
    probes: ['listing_rows_pkey', 'listing_rows_batch_id_id_index', 'listing_rows_unfinished'],
    keys: ['id'],
  },
  {
    name: 'listingRepository.markRowProcessing',
    table: 'listing_rows',
    run: (trx, t) => listingRepository.markRowProcessing(trx, NEW_ESHOP, t.batch, t.listingRow),
    probes: ['listing_rows_pkey', 'listing_rows_batch_id_id_index', 'listing_rows_unfinished'],
    keys: ['id'],
  },
  {
    name: 'listingRepository.finishRow',
    table: 'listing_rows',
    run: (trx, t) =>
      listingRepository.finishRow(trx, NEW_ESHOP, t.batch, t.listingRow, {
        status: 'failed',
        errorMessage: 'plan',
      }),
    probes: ['listing_rows_pkey', 'listing_rows_batch_id_id_index', 'listing_rows_unfinished'],
    keys: ['id'],
  },
  {
    name: 'idempotencyRepository.find',
    table: 'idempotency_keys',
    run: (trx, t) => idempotencyRepository.find(trx as unknown as Knex, NEW_ESHOP, t.idempotencyKey),
    probes: ['idempotency_keys_pkey'],
    keys: ['eshop_id', 'key'],
  },
  {
    name: 'idempotencyRepository.complete',
    table: 'idempotency_keys',
    run: (trx, t) =>
      idempotencyRepository.complete(
        trx as unknown as Knex,
        NEW_ESHOP,
        t.idempotencyKey,
        '00000000-0000-4000-8000-000000000000',
        { status: 200, body: '{}', contentType: 'application/json' },
      ),
    probes: ['idempotency_keys_pkey'],
    keys: ['eshop_id', 'key'],
  },
  {
    name: 'idempotencyRepository.release',
    table: 'idempotency_keys',
    run: (trx, t) =>
      idempotencyRepository.release(
        trx as unknown as Knex,
        NEW_ESHOP,
        t.idempotencyKey,
        '00000000-0000-4000-8000-000000000000',
      ),
    probes: ['idempotency_keys_pkey'],
    keys: ['eshop_id', 'key'],
  },
];

let sibling: SiblingDatabase;
let db: Knex;

beforeAll(async () => {
  sibling = await freshSiblingDatabase('plan_proof');
  await migrateLatest(sibling.db);
  // A pool of one: the statements captured below are the ones this file's transactions send.
  db = createKnex({ url: sibling.url, poolMin: 0, poolMax: 1, statementTimeoutMs: 30_000 });
  for (const table of TABLES) await db.raw('alter table ?? set (autovacuum_enabled = off)', [table]);
  await db.raw(`insert into eshops (id, name) select g, 'Plan eshop ' || g from generate_series(1, 6) g`);
  await db.raw('insert into credit_accounts (eshop_id, balance) select id, 1000000 from eshops');
  await db.raw(`insert into widget_categories (key, name) values ('plan', 'Plan')`);
  await db.raw(
    `insert into widgets (type, category_id, name, definition) select 'plan', id, 'Plan', '{}' from widget_categories`,
  );
  await db.raw(`insert into designs (name, category, hash) values ('Plan', 'product', repeat('0', 64))`);
  // Old eshops: a hundred rows of everything, their jobs done, analysed.
  await insert(db, ENTITIES, { ...OLD_ESHOPS, first: 1, last: 100, status: 'done' });
  await insert(db, OTHERS, { ...OLD_ESHOPS, rows: 100, endpoints: 3, perEndpoint: 100 });
  await db.raw('analyze');
  // The new eshop: 20,000 favourites, listing rows and keys, 20 endpoints with a full log (its
  // entities and their queued jobs come with each size below).
  const eshop = { from: NEW_ESHOP, to: NEW_ESHOP };
  await insert(db, OTHERS, { ...eshop, rows: 20_000, endpoints: 20, perEndpoint: 1_000 });
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await sibling?.drop();
});

/** The id of the new eshop's middle row of a table, in id order. */
async function middle(table: string): Promise<number> {
  const { rows } = await db.raw<{ rows: { id: number }[] }>(
    'select id from ?? where eshop_id = ? order by id offset (select count(*) / 2 from ?? where eshop_id = ?) limit 1',
    [table, NEW_ESHOP, table, NEW_ESHOP],
  );
  return rows[0]!.id;
}

describe.each(SIZES)('with %d unanalysed entities of the new eshop', (size) => {
  let targets: Targets;

  beforeAll(async () => {
    const { count } = (
      await db('wl_entities').where({ eshop_id: NEW_ESHOP }).count<{ count: string }[]>({
        count: '*',
      })
    )[0]!;
    const have = Number(count);
    // A bulk generation: every entity's job queued.
    const values = { from: NEW_ESHOP, to: NEW_ESHOP, first: have + 1, last: size, status: 'pending' };
    await insert(db, ENTITIES, values);
    targets = {
      entityId: `E${size / 2}`,
      entity: await middle('wl_entities'),
      job: await middle('generation_jobs'),
      favourite: await middle('widget_favourites'),
      endpoint: await middle('webhook_endpoints'),
      redelivery: await middle('webhook_redeliveries'),
      batch: (await db('listing_batches').where({ eshop_id: NEW_ESHOP }).first<{ id: number }>('id')).id,
      listingRow: await middle('listing_rows'),
      idempotencyKey: 'K10000',
      designId: (await db('designs').first<{ id: number }>('id')).id,
      product: await middle('products'),
      parameter: 1000,
      value: 10002,
    };
  }, 60_000);

  test('the setup: the planner believes the new eshop has about one row of each table', async () => {
    for (const table of ['wl_entities', 'generation_jobs', 'credit_ledger', 'webhook_redeliveries']) {
      const { rows } = await db.raw<{ rows: { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[] }>(
        'explain (format json) select * from ?? where eshop_id = ?',
        [table, NEW_ESHOP],
      );
      expect({ table, rows: rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows'] }).toEqual({ table, rows: 1 });
    }
  });

  test('when the sweeper looks for finished jobs whose settlement was lost, then it reads only the partial index of unsettled finished jobs', async () => {
    const sent: { sql: string; bindings: readonly Knex.RawBinding[] }[] = [];
    const listen = (query: { sql: string; bindings?: readonly Knex.RawBinding[] }) => {
      if (/\bgeneration_jobs\b/.test(query.sql))
        sent.push({ sql: query.sql, bindings: query.bindings ?? [] });
    };
    db.on('query', listen);
    try {
      await generationJobsRepository.finishedUnsettled(db, 300, 500);
    } finally {
      db.off('query', listen);
    }
    expect(sent).toHaveLength(1);
    const { rows } = await db.raw<{ rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] }>(
      `explain (format json) ${sent[0]!.sql.replace(/\$\d+/g, '?')}`,
      sent[0]!.bindings as Knex.RawBinding[],
    );
    const scans = nodes(rows[0]!['QUERY PLAN'][0]!.Plan).filter(
      (n) => n['Relation Name'] === 'generation_jobs',
    );
    expect(scans.map((n) => n['Index Name'])).toEqual(['generation_jobs_unsettled']);
  });

  test.each(CASES.map((c) => [c.name, c] as const))(
    'when %s runs for the new eshop, then each of its statements probes the key',
    async (_name, c) => {
      const sent: { sql: string; bindings: readonly Knex.RawBinding[] }[] = [];
      const listen = (query: {
        sql: string;
        bindings?: readonly Knex.RawBinding[];
        options?: { values?: readonly Knex.RawBinding[] };
      }) => {
        if (new RegExp(`\\b${c.table}\\b`).test(query.sql)) {
          // A statement run with runNumbered carries its values in the driver's options.
          const bindings = query.bindings?.length ? query.bindings : (query.options?.values ?? []);
          sent.push({ sql: query.sql, bindings });
        }
      };
      const trx = await db.transaction();
      try {
        await newestRivals(trx, c.table, c.probes);
        db.on('query', listen);
        try {
          await c.run(trx, targets);
        } finally {
          db.off('query', listen);
        }
        const found: { sql: string; problems: string[] }[] = [];
        let scans = 0;
        for (const statement of sent) {
          // The event carries the SQL as sent to PostgreSQL ($1, $2… in order): back to knex's `?`.
          const { rows } = await trx.raw<{ rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[] }>(
            `explain (format json) ${statement.sql.replace(/\$\d+/g, '?')}`,
            statement.bindings as Knex.RawBinding[],
          );
          const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
          scans += nodes(plan).filter(
            (n) => n['Relation Name'] === c.table && n['Node Type'] !== 'ModifyTable',
          ).length;
          found.push({ sql: statement.sql, problems: problems(plan, c.table, c.probes, c.keys) });
        }
        expect(scans).toBeGreaterThan(0);
        expect(found.filter((f) => f.problems.length)).toEqual([]);
      } finally {
        await trx.rollback();
      }
    },
  );
});
