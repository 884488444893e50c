export {
  CATALOGUE_TYPE_OF,
  fallbackPolicyOf,
  ContentVersionMismatch,
  generationMaterial,
  generationMaterials,
  itemImages,
  languagesChanged,
  materialOf,
  NoDraft,
  productRef,
  saveEditorContent,
  saveEditorContents,
} from './entity-content';
export { discardDraft, draftState } from './drafts';
export type { DiscardedDraft } from './drafts';
export type {
  EditorContentResult,
  EditorContentTarget,
  EditorContentWrite,
  EditorRevisionSource,
  EntitySources,
  GenerationMaterial,
  LanguageMaterial,
  RenderingEshop,
  SavedEditorContent,
} from './entity-content';
export { createDesignCache, renderContent, renderContents } from './render-content';
export { renderItem } from './render-item';
export type { DesignCache, RenderBatch, RenderTarget } from './render-content';
export type { ComposableDesign, RenderOutcome } from './render-item';
export { defaultDesign, loadDesign, structureOf, templateOf, widgetTemplates } from './designs';
export type { LoadedDesign } from './designs';
export { seedCatalogue } from './seed/catalogue.seed';
export { prepareDatabase } from './prepare';
export { markStoredSamples } from './legacy-samples';
