export {
  appendWidgets,
  childrenOf,
  copyElement,
  copyWidgets,
  elementGraphProblems,
  findWidget,
  idsAfter,
  insertWidget,
  isPermutation,
  maxElementId,
  maxKey,
  maxWidgetId,
  relabel,
  removeElement,
  removeWidget,
  reorderWidgets,
  subtreeIds,
  withKeys,
} from './operations';
export { keepOtherLanguages } from './languages';
export {
  asLangMap,
  elementTag,
  formatsByClass,
  isDataWidget,
  mergeValue,
  ownLanguages,
  prepareExtension,
  prepareValue,
  sameLangMap,
  writtenLanguages,
} from './values';
export type { ValueFormat } from './values';
