/**
 * The one interface every content provider implements. A provider receives a design structure
 * and the context of one generation job and answers with fill-request entries (the shape
 * `fillDesign` of @catalogue/content accepts) for the job's language only: each text is a plain
 * string, which the worker stores under `context.lang`.
 */
import type { DesignStructure, FillWidgetInput } from '@catalogue/content';

export interface ResearchExtract {
  url: string;
  text: string;
}

export interface GenerationContext {
  /** The job's language; every generated text is written in it. */
  lang: string;
  /** The eshop's active languages (informative; texts are generated for `lang` only). */
  languages: string[];
  name?: string;
  short_description?: string;
  /** HTML. */
  old_description?: string;
  /** Free text, usually one `Name: value` per line. */
  parameter?: string;
  ean?: string;
  /** The product's brand name in `lang`. */
  brand?: string;
  /** Names of the product's categories in `lang`. */
  categories?: string[];
  /** Instructions of the shop (the selected prompt). */
  prompt?: string;
  /** Wished paragraph length in characters; never raises a field's `max_length`. */
  paragraph_length?: number;
  /** Extracts of the `search_web` pages (see research/fetch-pages.ts); empty when not used. */
  research: ResearchExtract[];
  /** The catalogue item's images (same external id), language independent; may be empty. */
  images?: string[];
  /** The catalogue item's page in `lang` (a call to action links there). */
  url?: string;
  /**
   * The language the eshop writes its `default` texts in (`default_language`), when it says:
   * the language of a `default` job's words.
   */
  mainLanguage?: string;
}

/** Why a fillable widget of the design was left out: the data held nothing for it. */
export type SkipReason =
  | 'no_text'
  | 'no_parameters'
  | 'no_questions'
  | 'no_images'
  | 'no_url'
  | 'no_video'
  | 'no_quotes'
  | 'no_two_options'
  | 'not_answered'
  /** A `default` job of a shop that has not said which language its main one is: no sentence can be written. */
  | 'no_language'
  /** Everything the widget would show is already on the page (an appending job). */
  | 'already_shown';

/** A research page a widget's text was taken from (kept so the shop can check its source). */
export interface ResearchSource {
  url: string;
  /** The widget that used it; null when the provider cannot tell (it read every page). */
  design_widget_id: number | null;
}

export interface SkippedWidget {
  design_widget_id: number;
  type: string;
  reason: SkipReason;
}

export interface GenerationRequest {
  structure: DesignStructure;
  context: GenerationContext;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface GenerationResult {
  /** Fill-request entries that pass `fillDesign` validation for the request's structure. */
  widgets: FillWidgetInput[];
  /** Tokens used over every attempt that reported usage; null when none did (or builtin). */
  usage: TokenUsage | null;
  provider: string;
  model: string | null;
  /** Fillable widgets left out and why (the builtin provider says why; others: not answered). */
  skipped?: SkippedWidget[];
  /** Research pages the texts came from, by widget (the builtin provider knows; others: none). */
  sources?: ResearchSource[];
}

export interface ContentProvider {
  readonly name: 'builtin' | 'openai';
  generate(req: GenerationRequest, signal?: AbortSignal): Promise<GenerationResult>;
}

/**
 * A provider failure. `retryable` tells the caller whether trying the whole job again later may
 * help: errors thrown out of `generate()` after the provider's own retries are final
 * (`retryable: false`), except when the caller aborted. `usage` carries the tokens already spent
 * by failed attempts, so they can be recorded on the job too. Messages never contain secrets.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly usage: TokenUsage | null = null,
  ) {
    super(message);
  }
}
