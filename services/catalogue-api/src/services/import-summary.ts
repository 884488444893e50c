import type { CatalogueEntityType } from '@catalogue/config';

/** What an import did (or, on a dry run, would do) to the rows of one entity type. */
export interface ChangeCounts {
  /** Rows inserted. */
  created: number;
  /** Existing rows written with other content (or only another visibility, or undeleted). */
  updated: number;
  /** Existing rows sent with what is stored already. */
  unchanged: number;
}

/** The entity types an import summary names: the catalogue's, parameters and their values. */
export type SummaryEntity = CatalogueEntityType | 'parameter' | 'parameter_value';

export type ChangeSummary = Partial<Record<SummaryEntity, ChangeCounts>>;

/** Adds `counts` to the summary's entry of `entity` (a multi-import may name a type once). */
export function addCounts(summary: ChangeSummary, entity: SummaryEntity, counts: ChangeCounts): void {
  const entry = (summary[entity] ??= { created: 0, updated: 0, unchanged: 0 });
  entry.created += counts.created;
  entry.updated += counts.updated;
  entry.unchanged += counts.unchanged;
}
