/**
 * The context a `POST …/generate` request stores on its job row (`generation_jobs.context`):
 * the request body, with the chosen prompt's settings where the body left them out, and the
 * registered entity's title and old description in the job's language where the body sent none
 * (white-label specification rule 5; never another language's). The white-label API writes it (`planGeneration`), the generation worker
 * reads it (`readContext`, which also treats a blank text as not sent).
 */
export interface GenerateJobContext {
  name?: string;
  short_description?: string;
  old_description?: string;
  parameter?: string;
  ean?: string;
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
   * because the content it replaces has text of their own: each with the registered entity's
   * title and old description in that language (at least one of the two). Absent: the job
   * writes its own language only.
   */
  other_languages?: Record<string, OtherLanguageSource>;
}

/** What a replacing job writes another language from: the entity's own texts in it. */
export interface OtherLanguageSource {
  name?: string;
  old_description?: string;
}
