import type { WhiteLabelEntityType } from '@catalogue/config';
import type { LangMap, Text } from '../model';

/**
 * `html` and `text` are the formats of the specification; `url` (an http/https link) and
 * `video_url` (a YouTube or Vimeo link, stored as its embed URL) are ours, for the cta button and
 * the video widget.
 */
export type FieldFormat = 'html' | 'text' | 'url' | 'video_url';

export interface FieldSpec {
  role: string;
  format: FieldFormat;
  /** Characters of text content (tags do not count for `html`). */
  max_length: number;
  hint: string;
}

/** Where an element's value or attribute comes from: a widget field, or a field of the current item. */
export type Binding = { field: string } | { item: string };

/**
 * One element of a widget template. Nodes without content are not emitted, and neither are
 * containers left empty; table cells are the exception (a row keeps all its cells).
 */
export interface TemplateNode {
  tag: string;
  class: string;
  /** Source of the element's value (text or HTML according to the field's format). */
  text?: Binding;
  /** Source of `extension.src`: the widget's images, its icons (one per item), or a URL field. */
  src?: 'image' | 'icon' | Binding;
  /** Source of `extension.href`. */
  href?: Binding;
  /** Source of `extension.title` (the plain text of that field). */
  title?: Binding;
  /** Emits the node once per item, or once per (remaining) image. */
  repeat?: 'items' | 'images';
  children?: TemplateNode[];
}

/** Why a widget is offered without fillable fields. */
export type UnfillableReason = 'no_content_field' | 'filled_from_data';

/** Sample content used for design previews. */
export interface WidgetSample {
  fields?: Record<string, Text>;
  items?: Array<Record<string, Text>>;
  images?: string[];
  icons?: string[];
}

export interface WidgetDefinition {
  /** Stable key; also the `ccs-widget--<type>` class. */
  type: string;
  name: string;
  description: string;
  /** Key of the widget category (see SEED_WIDGET_CATEGORIES). */
  category: string;
  fillable: boolean;
  reason?: UnfillableReason;
  /** Items of a repeatable widget (0 = not repeatable). */
  item_count: number;
  field: FieldSpec[];
  item_field: FieldSpec[];
  image_slot: number;
  icon_slot: number;
  /** One icon per item: a design that changes item_count changes icon_slot with it. */
  icon_per_item?: boolean;
  /** Children of the widget's root element (`section.ccs-widget.ccs-widget--<type>`). */
  template: TemplateNode[];
  sample: WidgetSample;
}

/** A widget definition as loaded from the `widgets` table: the definition plus its database id. */
export interface WidgetTemplate extends WidgetDefinition {
  id: number;
}

export type DesignCategory = WhiteLabelEntityType;

export interface DesignWidgetDefinition {
  /** Widget type key. */
  widget: string;
  item_count?: number;
  image_slot?: number;
  icon_slot?: number;
  /** Per-role max_length overrides (fields and item fields). */
  max_length?: Record<string, number>;
}

export interface DesignDefinition {
  /** Stable key for seeding. */
  key: string;
  name: string;
  name_translation: LangMap;
  category: DesignCategory;
  type: 'public';
  widgets: DesignWidgetDefinition[];
}

export interface FillableStructureWidget {
  design_widget_id: number;
  position: number;
  type: string;
  widget_name: string;
  widget_description: string;
  fillable: true;
  item_count: number;
  field: FieldSpec[];
  item_field: FieldSpec[];
  image_slot: number;
  icon_slot: number;
}

/**
 * `type` is not in the specification's example of an unfillable entry; we add it so that
 * composition can still tell a parameters table from a divider.
 */
export interface UnfillableStructureWidget {
  design_widget_id: number;
  position: number;
  type: string;
  widget_name: string;
  fillable: false;
  reason: UnfillableReason;
}

export type StructureWidget = FillableStructureWidget | UnfillableStructureWidget;

export interface DesignStructure {
  design_id: number;
  design_name: string;
  category: DesignCategory;
  widget: StructureWidget[];
}
