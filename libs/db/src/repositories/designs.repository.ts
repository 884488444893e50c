import type { WhiteLabelEntityType } from '@catalogue/config';
import type { Knex } from 'knex';
import type { JsonDocument } from '../json';
import { checkedRows } from '../sql-rows';
import type { Row } from '../tables';

/** The categories the `designs.category` column accepts (libs/content's `StoredDesignCategory`). */
/** A design is made for one of the editor's entity types. */
export type StoredDesignCategory = WhiteLabelEntityType;

export interface DesignRow {
  id: number;
  eshopId: number | null;
  name: string;
  nameTranslation: Record<string, string>;
  info: string | null;
  imagePreview: string | null;
  category: StoredDesignCategory;
  type: 'public' | 'custom';
  position: number;
  hash: string;
  previewHtml: string;
}

/**
 * A design's rows: the design, and its widgets in order with their per-design overrides and the
 * catalogue definition of their widget (libs/content-store assembles the design from them).
 */
export interface StoredDesign {
  design: DesignRow;
  key: string | null;
  widgets: StoredDesignWidget[];
}

export interface StoredDesignWidget {
  /** design_widgets.id */
  id: number;
  widgetId: number;
  overrides: JsonDocument;
  definition: JsonDocument;
}

/** A widget of the catalogue: its id and its stored definition. */
export interface StoredWidget {
  id: number;
  definition: JsonDocument;
}

type RawDesign = Row<'designs'>;

function toDesign(row: RawDesign): DesignRow {
  return {
    id: row.id,
    eshopId: row.eshop_id,
    name: row.name,
    nameTranslation: row.name_translation,
    info: row.info,
    imagePreview: row.image_preview,
    category: row.category,
    type: row.type,
    position: row.position,
    hash: row.hash,
    previewHtml: row.preview_html,
  };
}

/**
 * The owner a row that uses the design must name beside its id (0 for a public design, the
 * eshop of a custom one). The database refuses the row unless that owner is 0 or the row's own
 * eshop, so another eshop's custom design can never be used, whatever the caller checked.
 */
export function designOwner(db: Knex | Knex.Transaction, designId: number): Knex.Raw {
  return db.raw('coalesce((select owner from designs where id = ?), 0)', [designId]);
}

/** Designs an eshop may use: visible public ones and its own custom ones. */
function accessible(db: Knex | Knex.Transaction, eshopId: number) {
  return db('designs').where((q) =>
    q.where({ type: 'public', is_visible: true }).orWhere({ type: 'custom', eshop_id: eshopId }),
  );
}

/** A design with its number of widgets (the white-label list's `widgets_count`). */
export interface CountedDesign {
  design: DesignRow;
  widgetsCount: number;
}

/** Designs (`d`) with their number of widgets, one correlated count each. */
function withWidgetCounts(db: Knex | Knex.Transaction) {
  return db('designs as d').select(
    'd.*',
    db.raw('(select count(*) from design_widgets dw where dw.design_id = d.id) as widgets_count'),
  );
}

function counted(rows: readonly unknown[]): CountedDesign[] {
  return checkedRows<RawDesign & { widgets_count: number }>(rows, ['id', 'widgets_count']).map((row) => ({
    design: toDesign(row),
    widgetsCount: Number(row.widgets_count),
  }));
}

export const designsRepository = {
  /**
   * The visible public designs of every category with their widget counts, by position: the
   * part of every eshop's design list that is the same for all (kept in memory by the API).
   */
  async listPublic(db: Knex | Knex.Transaction): Promise<CountedDesign[]> {
    return counted(
      await withWidgetCounts(db)
        .where({ 'd.type': 'public', 'd.is_visible': true })
        .orderBy(['d.position', 'd.id']),
    );
  },

  /** The eshop's own custom designs with their widget counts, by position; optionally of one category. */
  async listCustom(
    db: Knex | Knex.Transaction,
    eshopId: number,
    category?: StoredDesignCategory,
  ): Promise<CountedDesign[]> {
    const query = withWidgetCounts(db)
      .where({ 'd.type': 'custom', 'd.eshop_id': eshopId })
      .orderBy(['d.position', 'd.id']);
    if (category) query.andWhere({ 'd.category': category });
    return counted(await query);
  },

  /** The design the worker composes catalogue items with: the first accessible one of the category. */
  async defaultFor(db: Knex | Knex.Transaction, eshopId: number, category: StoredDesignCategory) {
    const row = await accessible(db, eshopId)
      .andWhere({ category })
      .orderBy([{ column: 'type', order: 'desc' }, 'position', 'id'])
      .first('*');
    return row ? this.load(db, eshopId, row.id) : undefined;
  },

  /** A design the eshop may use, with its widgets and their definitions; undefined otherwise. */
  async load(
    db: Knex | Knex.Transaction,
    eshopId: number,
    designId: number,
  ): Promise<StoredDesign | undefined> {
    const row = await accessible(db, eshopId).andWhere({ id: designId }).first('*');
    if (!row) return undefined;
    const rows = await db('design_widgets as dw')
      .join('widgets as w', 'w.id', 'dw.widget_id')
      .where('dw.design_id', designId)
      .orderBy('dw.position')
      .select('dw.id', 'dw.widget_id', 'dw.overrides', 'w.definition');
    const widgets = checkedRows<
      Pick<Row<'design_widgets'>, 'id' | 'widget_id' | 'overrides'> & Pick<Row<'widgets'>, 'definition'>
    >(rows, ['id', 'widget_id', 'overrides', 'definition']);
    return {
      design: toDesign(row),
      key: row.key,
      widgets: widgets.map((w) => ({
        id: w.id,
        widgetId: w.widget_id,
        overrides: w.overrides,
        definition: w.definition,
      })),
    };
  },

  /**
   * A design by id and structure hash, whoever may use it, with its widget types in order: what
   * its public preview files are drawn from. The hash (sha-256, only in an eshop's own design
   * list) stands in for the token that an `<img src>` cannot send.
   */
  async findForPreview(
    db: Knex | Knex.Transaction,
    designId: number,
    hash: string,
  ): Promise<{ design: DesignRow; widgetTypes: string[] } | undefined> {
    const row = await db('designs').where({ id: designId, hash }).first('*');
    if (!row) return undefined;
    const widgets = await db('design_widgets as dw')
      .join('widgets as w', 'w.id', 'dw.widget_id')
      .where('dw.design_id', designId)
      .orderBy('dw.position')
      .select('w.type');
    const types = checkedRows<Pick<Row<'widgets'>, 'type'>>(widgets, ['type']).map((w) => w.type);
    return { design: toDesign(row), widgetTypes: types };
  },

  /** Every widget of the catalogue with its definition (white-label widget list, editor adds). */
  async widgets(db: Knex | Knex.Transaction, categoryId?: number): Promise<StoredWidget[]> {
    const query = db('widgets').select('id', 'definition').orderBy(['position', 'id']);
    if (categoryId !== undefined) query.where({ category_id: categoryId });
    return query;
  },
};
