import { catalogueReads } from './catalogue-list.repository';
export type { ListedPieces } from './catalogue-list.repository';
import { catalogueWrites } from './catalogue-write.repository';

// The catalogue entities' repository, split by sub-concern into catalogue-tables.ts (tables and
// shapes), catalogue-write.repository.ts and catalogue-list.repository.ts; callers keep using
// `catalogueRepository` and the types from here.
export {
  ENTITY_TABLES,
  type EntityField,
  LISTED_FIELDS,
  type ListedAs,
  type ListedField,
  listedValue,
  type EntityRecord,
  type EntityWrite,
  type LangMap,
  type ListedEntity,
  type ListFilter,
  type ListOptions,
  type StoredEntity,
  type UpsertedRow,
} from './catalogue-tables';

export const catalogueRepository = { ...catalogueWrites, ...catalogueReads };
