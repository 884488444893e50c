export { isLangMap, pickLanguage, toLangMap, wireExtension } from './model';
export type { ContentElement, ContentWidget, Language, LangMap, NestedNode, Text } from './model';

export { escapeText, htmlToText, sanitizeHtml, sanitizeOutput } from './sanitize';
export { sanitizeRich } from './sanitize-rich';
export { RICH_LINK_SCHEMES, RICH_TAGS } from './markup';
export { safeHref, safeLinkHref, safeSrc, videoEmbedUrl, VIDEO_EMBED_HOSTS } from './urls';
export { isLanguageNeutral, LANGUAGE_NEUTRAL_CLASSES } from './neutral';
export { slugifyHeading } from './slug';

export {
  completeLanguages,
  DEFAULT_FALLBACK_POLICY,
  defaultLanguageCode,
  renderHtml,
  withWidgetHtml,
} from './render/html';
export type { FallbackPolicy } from './render/html';
export { renderMarketplace, MARKETPLACE_TAGS } from './render/marketplace';
export { renderNested } from './render/nested';
export { renderSiteLink } from './render/site-link';
export type { SiteLink, SiteLinkItem } from './render/site-link';
export { renderAll, renderComposed } from './render/all';
export { normaliseTag } from './render/structure';
export type { RenderedContent } from './render/all';

export { buildRichSnippet, jsonForScript } from './snippet';
export type {
  JsonLd,
  RichSnippet,
  SnippetEntity,
  SnippetEntityType,
  SnippetParameter,
  SnippetVariant,
} from './snippet';

export { SEED_WIDGET_CATEGORIES, SEED_WIDGETS, WIDGETS_BY_TYPE } from './catalogue/widgets';
export type { WidgetCategoryDefinition } from './catalogue/widgets';
export { SEED_DESIGNS } from './catalogue/designs';
export { canonicalJson, designStructure, repeatedClass, structureHash } from './catalogue/structure';
export type { StructureOptions, WidgetCatalogue } from './catalogue/structure';
export type {
  Binding,
  DesignCategory,
  DesignDefinition,
  DesignStructure,
  DesignWidgetDefinition,
  FieldFormat,
  FieldSpec,
  FillableStructureWidget,
  StructureWidget,
  TemplateNode,
  UnfillableReason,
  UnfillableStructureWidget,
  WidgetDefinition,
  WidgetSample,
  WidgetTemplate,
} from './catalogue/types';
export { designPreviewHtml, designPreviewTree } from './preview';
export { designPreviewPage, designThumbnailSvg } from './preview-page';

export { fillDesign } from './fill';
export type { FillOptions, FillRequest, FillResult, FillWidgetInput } from './fill';
export { composeFromEntity } from './compose';
export type { ComposeBrand, ComposeEntity, ComposeOptions, ComposeParameter } from './compose';

export { CONTENT_STYLESHEET_FILE, CONTENT_STYLESHEET_PATH } from './stylesheet';

export * from './tree';

export { starterWidget } from './starter';
export type { StarterData } from './starter';
export { adoptSample, hasSample, publicTree, sampleIn, sampleParts } from './sample';
export type { SampleContent } from './build';
export type { SamplePart } from './model';
export { markUnmarkedSamples } from './legacy-samples';

// The white-label API's (v3) answers, one module for the API and the editor (which imports it as
// `@catalogue/content/v3`): `v3.WidgetView`, `v3.Data<v3.DesignView[]>`, …
export type * as v3 from './v3-contract';
