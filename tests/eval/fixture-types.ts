// The shape of the content-quality fixture (fixture.ts): realistic catalogue entities written
// for the project in three languages; `default` is the shop's main language, English here.
export type EvalLanguage = 'cs' | 'en' | 'de';

export interface EvalTexts {
  /** Plain text, the entity's name in this language. */
  name: string;
  /** Plain text, one or two sentences (products and categories; may be absent for blog posts). */
  short_description?: string;
  /** HTML: <p>, <ul><li>, <strong>; two to six sentences; may ask and answer a customer question. */
  description: string;
  /** `Name: value` lines, one per line (products; some categories). */
  parameter?: string;
  /** Absolute https URL of the entity's page in this language (absent for a few items). */
  url?: string;
}

export interface EvalItem {
  /** Stable id, e.g. `P-01`. */
  id: string;
  type: 'product' | 'category' | 'blog';
  /** Absolute https image URLs (0–5). */
  images: string[];
  /** 13-digit EAN (products only, optional). */
  ean?: string;
  /** The brand's name (products only, optional). */
  brand?: string;
  texts: Record<EvalLanguage, EvalTexts>;
}
