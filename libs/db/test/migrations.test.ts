import { createHash } from 'node:crypto';
import {
  createKnex,
  databaseName,
  dropDatabase,
  ensureDatabase,
  hashToken,
  issueToken,
  migrateLatest,
  rollbackAll,
  tokensRepository,
  withDatabase,
  type Knex,
} from '@catalogue/db';
import {
  freshSiblingDatabase,
  makeEshop,
  siblingDatabaseUrl,
  testConfig,
  type SiblingDatabase,
} from '@catalogue/testing';

const TABLES = [
  'allowed_origins',
  'api_tokens',
  'blogs',
  'brands',
  'categories',
  'content',
  'content_revisions',
  'credit_accounts',
  'credit_ledger',
  'credit_prices',
  'design_widgets',
  'designs',
  'eshops',
  'event_sequences',
  'events',
  'generation_jobs',
  'idempotency_keys',
  'listing_batches',
  'listing_rows',
  'parameter_values',
  'parameters',
  'product_parameter_values',
  'product_variants',
  'products',
  'prompts',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_pending_deliveries',
  'webhook_redeliveries',
  'white_label_tokens',
  'widget_categories',
  'widget_favourites',
  'widgets',
  'wl_entities',
];
const MIGRATIONS = [
  '20261121000100_tenant_core',
  '20261121000200_credit_accounts',
  '20261121000300_credit_prices',
  '20261121000400_catalogue_entities',
  '20261121000500_content',
  '20261121000600_listing_batches',
  '20261121000700_designs',
  '20261121000800_generation_jobs',
  '20261122000100_white_label_entities',
  '20261123000100_tenant_references',
  '20261123000200_eshop_rate_limit',
  '20261123000300_idempotency_keys',
  '20261123000400_sweep_indexes',
  '20261125000100_auth_change_notify',
  '20261125000200_events',
  '20261125000300_generation_report',
  '20261125000400_covering_list_indexes',
  '20261125000500_webhooks',
  '20261125000600_credit_alert',
  '20261125000700_event_retention',
  '20261126000100_product_parameter_values',
  '20261126000200_language_fallback',
  '20261126000300_entity_default_design',
  '20261126000400_content_revisions',
  '20261126000600_delivery_settlement_state',
  '20261126000800_webhook_secret_rotation',
  '20261127000600_event_trace_context',
  '20261127000900_tenant_scoped_keys',
  '20261128000200_list_json',
  '20261128004700_content_drafts',
  '20261129001500_research_refused',
  '20261129001600_event_numbers_at_commit',
  '20261129020000_generation_batches',
  '20261129030000_event_numbers_per_append',
  '20261129030100_batch_item_job_set_null',
  '20261130000100_content_seo_pieces',
  '20261202000100_list_pieces_in_the_row',
];

async function databaseExists(name: string): Promise<boolean> {
  const maintenance = createKnex({
    url: withDatabase(testConfig().database.url, 'postgres'),
    poolMin: 0,
    poolMax: 1,
    statementTimeoutMs: 10_000,
  });
  try {
    const rows = await maintenance('pg_database').where({ datname: name }).select('datname');
    return rows.length === 1;
  } finally {
    await maintenance.destroy();
  }
}

async function schemaTables(db: Knex): Promise<string[]> {
  const rows = await db('information_schema.tables')
    .select<{ table_name: string }[]>('table_name')
    .where({ table_schema: 'public', table_type: 'BASE TABLE' })
    .whereIn('table_name', TABLES)
    .orderBy('table_name');
  return rows.map((r) => r.table_name);
}

describe('ensureDatabase', () => {
  const url = siblingDatabaseUrl('ensure');

  afterAll(async () => {
    await dropDatabase(url);
  });

  it('when the database does not exist, then it is created and true returned; then false', async () => {
    // Arrange
    await dropDatabase(url);
    expect(await databaseExists(databaseName(url))).toBe(false);

    // Act
    const first = await ensureDatabase(url);
    const second = await ensureDatabase(url);

    // Assert
    expect(first).toBe(true);
    expect(second).toBe(false);
    expect(await databaseExists(databaseName(url))).toBe(true);
  });

  it('when the URL names a database with forbidden characters, then it is refused before connecting', async () => {
    // Arrange
    const bad = withDatabase(testConfig().database.url, 'bad"name');

    // Act / Assert
    await expect(ensureDatabase(bad)).rejects.toThrow(/must name a database/);
  });
});

describe('migrations on a fresh database', () => {
  let sibling: SiblingDatabase;
  let db: Knex;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('migrations');
    db = sibling.db;
  });

  afterAll(() => sibling?.drop());

  it('when the database is empty, then migrateLatest applies every migration and creates the tables', async () => {
    // Arrange
    await rollbackAll(db);
    expect(await schemaTables(db)).toEqual([]);

    // Act
    const applied = await migrateLatest(db);

    // Assert
    expect(applied).toEqual(MIGRATIONS);
    expect(await schemaTables(db)).toEqual(TABLES);
    const recorded = await db('knex_migrations').select<{ name: string }[]>('name').orderBy('id');
    expect(recorded.map((r) => r.name)).toEqual(MIGRATIONS);
  });

  it('when the schema is up to date, then a second migrateLatest applies nothing', async () => {
    // Arrange
    await migrateLatest(db);

    // Act
    const applied = await migrateLatest(db);

    // Assert
    expect(applied).toEqual([]);
    expect(await schemaTables(db)).toEqual(TABLES);
    expect(await db('knex_migrations').count<{ count: number }[]>({ count: '*' })).toEqual([
      { count: MIGRATIONS.length },
    ]);
  });

  it('when rollbackAll runs, then every table is removed, newest migration first', async () => {
    // Arrange
    await migrateLatest(db);
    const [eshop] = await db('eshops').insert({ name: 'doomed' }).returning<{ id: number }[]>('id');
    await db('credit_accounts').insert({ eshop_id: eshop!.id, balance: 5 });

    // Act
    const reverted = await rollbackAll(db);

    // Assert
    expect(reverted).toEqual([...MIGRATIONS].reverse());
    expect(await schemaTables(db)).toEqual([]);
    expect(await db('knex_migrations').count<{ count: number }[]>({ count: '*' })).toEqual([{ count: 0 }]);
  });

  it('when the schema was rolled back, then migrateLatest creates it again and it is usable', async () => {
    // Arrange
    await migrateLatest(db);
    await rollbackAll(db);

    // Act
    const applied = await migrateLatest(db);

    // Assert
    expect(applied).toEqual(MIGRATIONS);
    expect(await schemaTables(db)).toEqual(TABLES);
    const [row] = await db('eshops').insert({ name: 'again' }).returning<{ languages: string[] }[]>('*');
    expect(row?.languages).toEqual(['default']);
  });
});

describe('repositories on the migrated schema', () => {
  let db: Knex;

  beforeAll(() => {
    db = createKnex(testConfig().database);
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('when an eshop is created, then its tokens are stored only as SHA-256 hashes with a short prefix', async () => {
    // Arrange / Act
    const created = await makeEshop(db);

    // Assert
    const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const apiRows = await db('api_tokens').where({ eshop_id: created.eshop.id });
    const wlRows = await db('white_label_tokens').where({ eshop_id: created.eshop.id });
    expect(apiRows).toHaveLength(1);
    expect(wlRows).toHaveLength(1);
    expect(apiRows[0]).toMatchObject({
      token_hash: sha256(created.apiToken),
      token_prefix: created.apiToken.slice(0, 12),
      revoked_at: null,
    });
    expect(wlRows[0]).toMatchObject({
      token_hash: sha256(created.whiteLabelToken),
      token_prefix: created.whiteLabelToken.slice(0, 12),
      revoked_at: null,
    });
    expect(created.apiToken).toMatch(/^cat_[A-Za-z0-9_-]{43}$/);
    expect(created.whiteLabelToken).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);
    const stored = JSON.stringify([...apiRows, ...wlRows]);
    expect(stored).not.toContain(created.apiToken);
    expect(stored).not.toContain(created.whiteLabelToken);
  });

  it('when a token is looked up by its hash, then its eshop is found only for the right kind', async () => {
    // Arrange
    const created = await makeEshop(db);

    // Act
    const byApi = await tokensRepository.findEshopByTokenHash(db, 'api', hashToken(created.apiToken));
    const wrongKind = await tokensRepository.findEshopByTokenHash(
      db,
      'white-label',
      hashToken(created.apiToken),
    );
    const byWl = await tokensRepository.findEshopByTokenHash(
      db,
      'white-label',
      hashToken(created.whiteLabelToken),
    );

    // Assert
    expect(byApi?.id).toBe(created.eshop.id);
    expect(byWl?.id).toBe(created.eshop.id);
    expect(wrongKind).toBeUndefined();
  });

  it('when a token is revoked, then findEshopByTokenHash no longer finds it but other tokens still work', async () => {
    // Arrange
    const created = await makeEshop(db);
    const second = issueToken('api');
    const secondInfo = await tokensRepository.insert(db, created.eshop.id, 'api', second);
    const [first] = await db('api_tokens')
      .where({ eshop_id: created.eshop.id, token_hash: hashToken(created.apiToken) })
      .select<{ id: number }[]>('id');

    // Act
    const revoked = await tokensRepository.revoke(db, created.eshop.id, 'api', first!.id);
    const revokedAgain = await tokensRepository.revoke(db, created.eshop.id, 'api', first!.id);

    // Assert
    expect(revoked).toBe(true);
    expect(revokedAgain).toBe(false);
    expect(
      await tokensRepository.findEshopByTokenHash(db, 'api', hashToken(created.apiToken)),
    ).toBeUndefined();
    expect((await tokensRepository.findEshopByTokenHash(db, 'api', second.hash))?.id).toBe(created.eshop.id);
    const row = await db('api_tokens').where({ id: first!.id }).first();
    expect(row!.revoked_at).toBeInstanceOf(Date);
    const active = await tokensRepository.findActiveByPrefix(db, created.eshop.id, 'cat_');
    expect(active.map((t) => t.id)).toEqual([secondInfo.id]);
  });

  it('when a credit balance would become negative, then the check constraint refuses it', async () => {
    // Arrange
    const created = await makeEshop(db, { credits: 10 });

    // Act
    const update = db('credit_accounts').where({ eshop_id: created.eshop.id }).update({ balance: -1 });

    // Assert
    await expect(update).rejects.toThrow(/credit_accounts_balance_not_negative/);
    const account = await db('credit_accounts').where({ eshop_id: created.eshop.id }).first();
    expect(account).toMatchObject({ balance: 10, reserved: 0 });
  });

  it('when a credit account is inserted with a negative balance, then the insert is refused', async () => {
    // Arrange
    const created = await makeEshop(db, { credits: 0 });

    // Act
    const insert = db('credit_accounts').insert({ eshop_id: created.eshop.id, balance: -5 });

    // Assert
    await expect(insert).rejects.toThrow(/credit_accounts_balance_not_negative/);
    expect(await db('credit_accounts').where({ eshop_id: created.eshop.id })).toEqual([]);
  });

  it('when more is reserved than the balance, then the check constraint refuses it', async () => {
    // Arrange
    const created = await makeEshop(db, { credits: 10 });

    // Act
    const update = db('credit_accounts').where({ eshop_id: created.eshop.id }).update({ reserved: 11 });

    // Assert
    await expect(update).rejects.toThrow(/credit_accounts_reserved_within_balance/);
    const account = await db('credit_accounts').where({ eshop_id: created.eshop.id }).first();
    expect(account).toMatchObject({ balance: 10, reserved: 0 });
  });
});
