import type { Knex } from 'knex';
import type { ContentFallback, Language, PublishMode } from '@catalogue/config';
import { checkedRow, checkedRows, countOf } from '../sql-rows';
import type { Row, Update } from '../tables';

export interface Eshop {
  id: number;
  name: string;
  languages: Language[];
  enableSiteLink: boolean;
  enableRichSnippet: boolean;
  reviewRequired: boolean;
  /** Last day (UTC, YYYY-MM-DD) of the white-label licence; null when there is none. */
  licenceValidUntil: string | null;
  /** Requests per minute that replace the configured read budget (others scale); null: defaults. */
  rateLimitPerMinute: number | null;
  /** `fallback`: show `default` marked with `lang`; `omit`: leave untranslated widgets out. */
  contentFallback: ContentFallback;
  /** The language the `default` texts are written in (the marker's code); null: not said (`und`). */
  defaultLanguage: Exclude<Language, 'default'> | null;
  /** `immediate`: editor writes reach the storefront at once; `draft`: they wait until published. */
  publishMode: PublishMode;
  createdAt: Date;
  updatedAt: Date;
}

export interface EshopInput {
  name: string;
  languages: Language[];
  enableSiteLink: boolean;
  enableRichSnippet: boolean;
  reviewRequired: boolean;
  licenceValidUntil: string | null;
  rateLimitPerMinute?: number | null;
  contentFallback?: ContentFallback;
  defaultLanguage?: Exclude<Language, 'default'> | null;
  publishMode?: PublishMode;
}

/** An eshop as selectEshop reads it: the stored columns, the licence's last day as text. */
type EshopRow = Omit<Row<'eshops'>, 'licence_valid_until' | 'content_revisions_keep'> & {
  licence_valid_until: string | null;
};

const ESHOP_COLUMNS = [
  'id',
  'name',
  'languages',
  'enable_site_link',
  'enable_rich_snippet',
  'review_required',
  'licence_valid_until',
  'rate_limit_per_minute',
  'content_fallback',
  'default_language',
  'publish_mode',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EshopRow)[];

/** The eshop a row of selectEshop holds (its columns checked), or undefined for no row. */
export function readEshop(row: unknown): Eshop | undefined {
  const checked = checkedRow<EshopRow>(row, ESHOP_COLUMNS);
  return checked && toEshop(checked);
}

/** Selects an eshop row; `licence_valid_until` as YYYY-MM-DD text. */
export function selectEshop(db: Knex | Knex.Transaction) {
  return db('eshops').select(
    'eshops.id',
    'eshops.name',
    'eshops.languages',
    'eshops.enable_site_link',
    'eshops.enable_rich_snippet',
    'eshops.review_required',
    db.raw(`to_char(eshops.licence_valid_until, 'YYYY-MM-DD') as licence_valid_until`),
    'eshops.rate_limit_per_minute',
    'eshops.content_fallback',
    'eshops.default_language',
    'eshops.publish_mode',
    'eshops.created_at',
    'eshops.updated_at',
  );
}

function toEshop(row: EshopRow): Eshop {
  return {
    id: row.id,
    name: row.name,
    languages: row.languages,
    enableSiteLink: row.enable_site_link,
    enableRichSnippet: row.enable_rich_snippet,
    reviewRequired: row.review_required,
    licenceValidUntil: row.licence_valid_until,
    rateLimitPerMinute: row.rate_limit_per_minute,
    contentFallback: row.content_fallback,
    defaultLanguage: row.default_language,
    publishMode: row.publish_mode,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(input: Partial<EshopInput>): Update<'eshops'> {
  const row: Update<'eshops'> = {};
  if (input.name !== undefined) row.name = input.name;
  if (input.languages !== undefined) row.languages = input.languages;
  if (input.enableSiteLink !== undefined) row.enable_site_link = input.enableSiteLink;
  if (input.enableRichSnippet !== undefined) row.enable_rich_snippet = input.enableRichSnippet;
  if (input.reviewRequired !== undefined) row.review_required = input.reviewRequired;
  if (input.licenceValidUntil !== undefined) row.licence_valid_until = input.licenceValidUntil;
  if (input.rateLimitPerMinute !== undefined) row.rate_limit_per_minute = input.rateLimitPerMinute;
  if (input.contentFallback !== undefined) row.content_fallback = input.contentFallback;
  if (input.defaultLanguage !== undefined) row.default_language = input.defaultLanguage;
  if (input.publishMode !== undefined) row.publish_mode = input.publishMode;
  return row;
}

export const eshopsRepository = {
  async create(db: Knex | Knex.Transaction, input: EshopInput): Promise<Eshop> {
    const [inserted] = await db('eshops')
      .insert({ ...toRow(input), name: input.name })
      .returning('id');
    return (await this.findById(db, inserted!.id))!;
  },

  async findById(db: Knex | Knex.Transaction, id: number): Promise<Eshop | undefined> {
    const row = await selectEshop(db).where('eshops.id', id).first();
    return readEshop(row);
  },

  async list(db: Knex | Knex.Transaction): Promise<Eshop[]> {
    const rows = await selectEshop(db).orderBy('eshops.id');
    return checkedRows<EshopRow>(rows, ESHOP_COLUMNS).map(toEshop);
  },

  async update(
    db: Knex | Knex.Transaction,
    id: number,
    patch: Partial<EshopInput>,
  ): Promise<Eshop | undefined> {
    const changed = await db('eshops')
      .where({ id })
      .update({ ...toRow(patch), updated_at: db.fn.now(6) });
    return changed ? this.findById(db, id) : undefined;
  },

  async count(db: Knex | Knex.Transaction): Promise<number> {
    return countOf(await db('eshops').count({ count: '*' }).first());
  },
};
