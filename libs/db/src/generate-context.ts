/**
 * The context a `POST …/generate` request stores on its job row (`generation_jobs.context`):
 * the request body, with the chosen prompt's settings where the body left them out, merged
 * field by field OVER what the service knows of the entity in the job's language (never
 * another language's): the body first, then the registered entity's title and old description,
 * then the catalogue item of the same id and type (name, short description, description, its
 * own parameter values, brand, category names, images, page). The white-label API writes it
 * (`planGeneration`, the one place the merge happens), the generation worker reads it
 * (`readContext`, which also treats a blank text as not sent).
 */
export interface GenerateJobContext {
  name?: string;
  short_description?: string;
  old_description?: string;
  /** `Name: value` lines: the body's, else the catalogue product's own parameter values. */
  parameter?: string;
  ean?: string;
  /** The catalogue product's brand name in the job's language. */
  brand?: string;
  /** Names of the catalogue product's categories in the job's language. */
  categories?: string[];
  /**
   * The catalogue item's images (language independent). Absent on rows written before the
   * merge: the worker then reads them from the catalogue.
   */
  images?: string[];
  /** The catalogue item's page in the job's language. */
  url?: string;
  prompt_id?: number;
  paragraph_length?: number;
  // The white-label API always writes the four below; a row without one (tests' fixtures, rows
  // written by hand) reads as false and [].
  remove_exist_widget?: boolean;
  use_serp_context?: boolean;
  use_web_research?: boolean;
  /** Distinct URLs to read when `use_web_research` is on. */
  search_web?: string[];
  /** Stored as sent; the worker does not read it. */
  search_model?: string[];
  /** Stored as sent; the worker does not read it. */
  use_ai_profile?: boolean;
  /**
   * Languages other than the job's that a replacing job (`remove_exist_widget`) writes again,
   * because the content it replaces has text of their own: each with what the service knows of
   * the entity in that language (registered title and old description over the catalogue's
   * texts; at least a name or a description). Absent: the job writes its own language only.
   */
  other_languages?: Record<string, OtherLanguageSource>;
}

/** What a replacing job writes another language from: the entity's own data in it. */
export interface OtherLanguageSource {
  name?: string;
  short_description?: string;
  old_description?: string;
  parameter?: string;
  brand?: string;
  categories?: string[];
  url?: string;
}
