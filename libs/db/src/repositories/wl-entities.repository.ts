import type { Knex } from 'knex';
import type { LangMap } from './catalogue.repository';
import { checkedOne, checkedRows, countOf, insertedColumn } from '../sql-rows';
import type { Row, TimestampsOut, WlEntityRow } from '../tables';
import { isoOffset } from '../timestamps';
import { designOwner } from './designs.repository';
import { INTERNAL_ID, keysFrom, type TenantKey } from './tenant-keys';

export type WlEntityType = WlEntityRow['type'];

/** A host entity registered through the white-label API. */
export interface WlEntity {
  id: number;
  eshopId: number;
  entityId: string;
  type: WlEntityType;
  designId: number | null;
  oldDescription: LangMap;
  title: LangMap;
  /** ISO 8601 with a numeric UTC offset, as the white-label specification shows timestamps. */
  createdAt: string;
  updatedAt: string;
}

export interface WlEntityWrite {
  entityId: string;
  type: WlEntityType;
  oldDescription: LangMap;
  title: LangMap;
  /** A design for an entity that has none yet (a design it has is kept); see `upsert`. */
  designId?: number | null;
}

const ENTITY_ID: TenantKey = { column: 'entity_id', type: 'text' };

type EntityOut = Omit<WlEntityRow, 'design_owner' | keyof TimestampsOut> & TimestampsOut;

/** The entity's columns, named by table (a statement joined on keysFrom has eshop_id and entity_id twice). */
function select(db: Knex | Knex.Transaction, query: Knex.QueryBuilder = db('wl_entities')) {
  return query.select(
    'wl_entities.id',
    'wl_entities.eshop_id',
    'wl_entities.entity_id',
    'wl_entities.type',
    'wl_entities.design_id',
    'wl_entities.old_description',
    'wl_entities.title',
    db.raw(`${isoOffset('wl_entities.created_at')} as created_at`),
    db.raw(`${isoOffset('wl_entities.updated_at')} as updated_at`),
  );
}

const OUT_COLUMNS = [
  'id',
  'eshop_id',
  'entity_id',
  'type',
  'design_id',
  'old_description',
  'title',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EntityOut)[];

/** A row select() read (its columns checked: the timestamps are computed). */
function toEntity(raw: unknown): WlEntity {
  const row = checkedOne<EntityOut>(raw, OUT_COLUMNS);
  return {
    id: row.id,
    eshopId: row.eshop_id,
    entityId: row.entity_id,
    type: row.type,
    designId: row.design_id,
    oldDescription: row.old_description,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const wlEntitiesRepository = {
  /**
   * Creates the entity, or updates its description and title; `created` says which. `designId`
   * is given to an entity without a design (a new one, or one whose design was removed); a
   * design the entity has (filled meanwhile, even by a concurrent transaction) is kept.
   */
  async upsert(
    db: Knex | Knex.Transaction,
    eshopId: number,
    input: WlEntityWrite,
  ): Promise<{ entity: WlEntity; created: boolean }> {
    const values = {
      old_description: JSON.stringify(input.oldDescription),
      title: JSON.stringify(input.title),
    };
    const designId = input.designId ?? null;
    const design = designId === null ? {} : { design_id: designId, design_owner: designOwner(db, designId) };
    const keepDesign =
      designId === null
        ? {}
        : {
            // Both read the row as it was: the owner follows the design it goes with.
            design_id: db.raw('coalesce(wl_entities.design_id, excluded.design_id)'),
            design_owner: db.raw(
              'case when wl_entities.design_id is null then excluded.design_owner else wl_entities.design_owner end',
            ),
          };
    const [row] = checkedRows<Pick<Row<'wl_entities'>, 'id'> & { inserted: boolean }>(
      await db('wl_entities')
        .insert({ eshop_id: eshopId, entity_id: input.entityId, type: input.type, ...values, ...design })
        .onConflict(['eshop_id', 'type', 'entity_id'])
        .merge({ ...values, ...keepDesign, updated_at: db.fn.now(6) })
        .returning(['id', insertedColumn(db)]),
      ['id', 'inserted'],
    );
    // Written just above in this transaction: it is there.
    const entity = (await select(db).where({ eshop_id: eshopId, id: row!.id }).first())!;
    return { entity: toEntity(entity), created: row!.inserted };
  },

  /**
   * Registers the entity unless the eshop has it already (then it is left exactly as it is) and
   * answers the registered entity either way.
   */
  async registerIfAbsent(
    db: Knex | Knex.Transaction,
    eshopId: number,
    input: WlEntityWrite,
  ): Promise<WlEntity> {
    const designId = input.designId ?? null;
    await db('wl_entities')
      .insert({
        eshop_id: eshopId,
        entity_id: input.entityId,
        type: input.type,
        old_description: JSON.stringify(input.oldDescription),
        title: JSON.stringify(input.title),
        ...(designId !== null && { design_id: designId, design_owner: designOwner(db, designId) }),
      })
      .onConflict(['eshop_id', 'type', 'entity_id'])
      .ignore();
    // Inserted above, or there already (a concurrent insert is waited for by the conflict check).
    return (await this.find(db, eshopId, input.type, input.entityId))!;
  },

  async find(
    db: Knex | Knex.Transaction,
    eshopId: number,
    type: WlEntityType,
    entityId: string,
  ): Promise<WlEntity | undefined> {
    // Joined on the keys (keysFrom): by stale statistics a walk of the eshop's entities through
    // the primary key (eshop_id, id) costs the same as the probe of (eshop_id, type, entity_id).
    const keyed = db
      .from(keysFrom(db, eshopId, [entityId], ENTITY_ID))
      .join('wl_entities', (join) =>
        join.on('wl_entities.eshop_id', 'k.eshop_id').andOn('wl_entities.entity_id', 'x.entity_id'),
      );
    const row = await select(db, keyed).where('wl_entities.type', type).first();
    return row ? toEntity(row) : undefined;
  },

  /** `find` of many entities of one type, by entity id (one statement). */
  async findMany(
    db: Knex | Knex.Transaction,
    eshopId: number,
    type: WlEntityType,
    entityIds: readonly string[],
  ): Promise<Map<string, WlEntity>> {
    if (entityIds.length === 0) return new Map();
    const keyed = db
      .from(keysFrom(db, eshopId, [...new Set(entityIds)], ENTITY_ID))
      .join('wl_entities', (join) =>
        join.on('wl_entities.eshop_id', 'k.eshop_id').andOn('wl_entities.entity_id', 'x.entity_id'),
      );
    const rows: unknown[] = await select(db, keyed).where('wl_entities.type', type);
    return new Map(rows.map((row) => toEntity(row)).map((entity) => [entity.entityId, entity]));
  },

  /** `registerIfAbsent` of many entities in one multi-row insert; returns every one of them, registered. */
  async registerManyIfAbsent(
    db: Knex | Knex.Transaction,
    eshopId: number,
    type: WlEntityType,
    inputs: readonly Omit<WlEntityWrite, 'type'>[],
  ): Promise<Map<string, WlEntity>> {
    if (inputs.length === 0) return new Map();
    await db('wl_entities')
      .insert(
        inputs.map((input) => {
          const designId = input.designId ?? null;
          return {
            eshop_id: eshopId,
            entity_id: input.entityId,
            type,
            old_description: JSON.stringify(input.oldDescription),
            title: JSON.stringify(input.title),
            ...(designId !== null && { design_id: designId, design_owner: designOwner(db, designId) }),
          };
        }),
      )
      .onConflict(['eshop_id', 'type', 'entity_id'])
      .ignore();
    return this.findMany(
      db,
      eshopId,
      type,
      inputs.map((input) => input.entityId),
    );
  },

  /** The design of each of these registered entities (null: none), by entity id. */
  async designsOf(
    db: Knex | Knex.Transaction,
    eshopId: number,
    type: WlEntityType,
    entityIds: readonly string[],
  ): Promise<Map<string, number | null>> {
    const rows = await db('wl_entities')
      .where({ eshop_id: eshopId, type })
      .whereRaw('entity_id = any(?::text[])', [[...entityIds]])
      .select('entity_id', 'design_id');
    return new Map(rows.map((row) => [row.entity_id, row.design_id]));
  },

  /** The eshop's entities in registration order. */
  async list(
    db: Knex | Knex.Transaction,
    eshopId: number,
    opts: { type?: WlEntityType; limit?: number; offset?: number } = {},
  ): Promise<WlEntity[]> {
    const query = select(db).where({ eshop_id: eshopId }).orderBy('id');
    if (opts.type) query.andWhere({ type: opts.type });
    if (opts.limit !== undefined) query.limit(opts.limit);
    if (opts.offset !== undefined) query.offset(opts.offset);
    return (await query).map((r: unknown) => toEntity(r));
  },

  async count(
    db: Knex | Knex.Transaction,
    eshopId: number,
    opts: { type?: WlEntityType } = {},
  ): Promise<number> {
    const query = db('wl_entities').where({ eshop_id: eshopId });
    if (opts.type) query.andWhere({ type: opts.type });
    const [row] = await query.count({ count: '*' });
    return countOf(row);
  },

  /**
   * Records the design filled into the entity and touches it. Joined on the keys (keysFrom): by
   * stale statistics a walk of the eshop's entities through (eshop_id, type, entity_id) costs the
   * same as the primary key's probe.
   */
  async setDesign(db: Knex | Knex.Transaction, eshopId: number, id: number, designId: number): Promise<void> {
    await db('wl_entities')
      .where('wl_entities.eshop_id', db.ref('k.eshop_id'))
      .andWhere('wl_entities.id', db.ref('x.id'))
      .update({ design_id: designId, design_owner: designOwner(db, designId), updated_at: db.fn.now(6) })
      // After update(): knex checks the values against the table's row type only before updateFrom.
      .updateFrom(keysFrom(db, eshopId, [id], INTERNAL_ID));
  },
};
