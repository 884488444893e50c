/** Shapes of the white-label API (v3) as the editor reads them (see docs/openapi.yaml). */

// The content widget and its elements are the widget tree of libs/content (type-only: nothing
// of that library is bundled).
import type { ContentElement, LangMap } from '@catalogue/content';

export type { ContentElement, ContentWidget, LangMap } from '@catalogue/content';

export interface CatalogueWidget {
  id: number;
  type: string;
  name: string;
  description: string;
  category_id: number;
  category_key: string;
  category_name: string;
  /** The class of the element repeated per item or image (offered to duplicate or remove), or null. */
  item_class: string | null;
}

export interface Favourite {
  id: number;
  name: string;
  widget_id: number;
  children: Array<Omit<ContentElement, 'value' | 'extension'> & { value: unknown; extension: unknown }>;
}

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface GenerationJob {
  id: number;
  status: JobStatus;
  design_id: number;
  lang: string;
  widgets_created: number;
  /** The design's fillable widgets the job left out, and why (beyond the specification). */
  widgets_skipped?: Array<{ design_widget_id: number; type: string; reason: string }>;
  error_message: string | null;
}

export interface Prompt {
  id: number;
  name: string;
  remove_exist_widget: boolean;
  use_serp_context: boolean;
  use_web_research: boolean;
  search_web: string[];
}

export interface Design {
  id: number;
  name: string;
  name_translation: LangMap;
  image_preview: string | null;
  preview_url: string | null;
  category: string;
  widgets_count: number;
}

export interface FieldSpec {
  role: string;
  format: string;
  max_length: number;
  hint: string;
}

export interface StructureWidget {
  design_widget_id: number;
  position: number;
  type?: string;
  widget_name: string;
  widget_description?: string;
  fillable: boolean;
  item_count?: number;
  field?: FieldSpec[];
  item_field?: FieldSpec[];
  image_slot?: number;
  icon_slot?: number;
}

export interface DesignStructure {
  design_id: number;
  design_name: string;
  category: string;
  widget: StructureWidget[];
}

export interface Price {
  operation: string;
  unit: string;
  price: number;
}

/** One stored write of the content (`GET …/revisions`). */
export interface ContentRevision {
  id: number;
  version: number;
  source: 'editor' | 'fill' | 'generation' | 'import' | 'restore' | 'repair';
  generation_id: number | null;
  /** What its generation was charged, once settled (null otherwise). */
  credits_charged: number | null;
  languages_changed: string[];
  created_at: string;
}
