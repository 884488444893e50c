export {
  CATALOGUE_TYPE_OF,
  generationMaterial,
  itemImages,
  materialOf,
  lockContentAndSources,
  productRef,
  saveEditorContent,
} from './entity-content';
export type {
  EditorContentTarget,
  EntitySources,
  GenerationMaterial,
  LanguageMaterial,
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
