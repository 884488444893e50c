/**
 * The white-label API's (v3) answers, declared once: white-label-api builds its responses typed
 * with them and the editor (libs/editor) reads them with them, so a field renamed here fails to
 * compile on both sides. Types only, and browser-safe: nothing here exists at run time, and the
 * editor imports it as `@catalogue/content/v3` (`import type`), bundling nothing of this library.
 * The paths and what each answers are in docs/openapi.yaml; docs/decisions/0063-one-module-of-v3-response-types.md, "One module of v3
 * response types", says what stays declared elsewhere and why.
 */
import type { GenerationJobStatus, RevisionSource, WhiteLabelEntityType } from '@catalogue/config';
import type { DesignCategory, FieldSpec, UnfillableReason } from './catalogue/types';
import type { ContentElement } from './model';

// The content tree and a design's structure are libs/content's own types: the API answers them as
// they are (`GET …/content…`, `GET /design/{id}/structure`).
export type { ContentElement, ContentWidget, LangMap, SamplePart } from './model';
export type {
  DesignStructure,
  FieldSpec,
  FillableStructureWidget,
  StructureWidget,
  UnfillableStructureWidget,
  UnfillableReason,
} from './catalogue/types';
export type { GenerationJobStatus, RevisionSource };

/** `{ data: … }`, the envelope of most answers. */
export interface Data<T> {
  data: T;
}

/** A page of a list (`?page=&per_page=`). */
export interface Page<T> {
  data: T[];
  meta: { total: number; current_page: number; per_page: number };
}

/** `GET /widget`: a widget of the catalogue, where it is listed and what it can be filled with. */
export interface WidgetView {
  id: number;
  type: string;
  name: string;
  description: string;
  category_id: number;
  category_key: string;
  category_name: string;
  fillable: boolean;
  /** Why the widget has nothing to fill (null when it is fillable). */
  reason: UnfillableReason | null;
  item_count: number;
  field: FieldSpec[];
  item_field: FieldSpec[];
  image_slot: number;
  icon_slot: number;
  /** The class of the element repeated per item or image (what element-copy duplicates), or null. */
  item_class: string | null;
}

/**
 * An element as a favourite stores it: a content element whose value is a plain language map
 * (a sent `[]` is stored as `{}`) and whose `extension` is `[]` when it has no attributes.
 */
export interface FavouriteElement extends Omit<ContentElement, 'value'> {
  value: Record<string, string>;
}

/** `GET /widget-favourite` and `/widget-favourite/{id}`. */
export interface FavouriteView {
  id: number;
  name: string;
  widget_id: number;
  children: FavouriteElement[];
  created_at: string;
  updated_at: string;
}

/** A fillable widget of the design a generation left out, and why (beyond the specification). */
export interface SkippedWidget {
  design_widget_id: number;
  type: string;
  reason: string;
}

/** A research page a generation's texts came from, by widget (beyond the specification). */
export interface ResearchSource {
  url: string;
  design_widget_id: number | null;
}

/** A research URL a generation job did not read, and why. */
export interface ResearchRefusal {
  url: string;
  reason: string;
}

/** `POST …/generate`, `GET …/generate`, `GET /generate/{id}`: a generation job. */
export interface GenerationJobView {
  id: number;
  status: GenerationJobStatus;
  design_id: number;
  lang: string;
  widgets_created: number;
  widgets_skipped: SkippedWidget[];
  research_sources: ResearchSource[];
  /** The `search_web` URLs not read, and why. */
  research_refused: ResearchRefusal[];
  error_message: string | null;
  created_at: string;
  updated_at: string;
}

/** `GET /prompt`: a prompt every eshop sees, or the eshop's own. */
export interface PromptView {
  id: number;
  name: string;
  prompt: string;
  remove_exist_widget: boolean;
  use_serp_context: boolean;
  use_web_research: boolean;
  search_web: string[];
  search_model: string[];
}

/** `GET /design`: a design as the specification's Design table shows it. */
export interface DesignView {
  id: number;
  name: string;
  name_translation: Record<string, string>;
  info: string | null;
  /** A stored thumbnail URL, else the SVG the service draws from the widget layout. */
  image_preview: string;
  category: DesignCategory;
  type: 'public' | 'custom';
  position: number;
  hash: string;
  widgets_count: number;
  /** The design filled with its sample content, as a page a browser opens on its own. */
  preview_url: string;
}

/** `GET /public/credit`: one price of the public price list. */
export interface PriceView {
  operation: string;
  unit: string;
  price: number;
  description: string;
}

/** `GET /credit`: what a new generation may still reserve. */
export interface RemainingCredits {
  remaining: number;
}

/** `GET …/content/…/revisions`: one stored write of the content (no tree). */
export interface RevisionView {
  id: number;
  version: number;
  source: RevisionSource;
  generation_id: number | null;
  /** What its generation was charged, once settled (null otherwise). */
  credits_charged: number | null;
  languages_changed: string[];
  /** A write that waited as a draft (never served by the storefront). */
  draft: boolean;
  /** The revision the storefront serves now. */
  published: boolean;
  created_at: string;
}

/** `GET …/content/…/draft`: the entity's draft state and the html a preview shows. */
export interface DraftView {
  publish_mode: 'immediate' | 'draft';
  has_draft: boolean;
  /** The content's version (the ETag of the editor's view). */
  version: number;
  /** The version of the revision the storefront serves (null: none yet). */
  published_version: number | null;
  /** When the draft was last written (null: no draft). */
  draft_updated_at: string | null;
  /** The draft rendered as the storefront would serve it once published (no draft: the published html). */
  html: Record<string, string>;
}

/** `POST /register-entity`, `GET /entity`: an entity, its texts as one string. */
export interface EntityView {
  id: number;
  entity_id: string;
  type: WhiteLabelEntityType;
  design_id: number | null;
  old_description: string;
  title: string;
  created_at: string;
  updated_at: string;
}

/** `GET /entity/…/html`: the entity's rendered content, by language. */
export interface EntityHtml {
  html: Record<string, string>;
}

/** `POST /entity/…/design`: the design filled; the rendered content and the widgets it made. */
export interface FillDesignView {
  html: Record<string, string>;
  widget_created: number;
}
