import { type CatalogueEntityType, isRecord, type V1EntityType } from '@catalogue/config';
import { eventsRepository, type Knex, type NewEvent } from '@catalogue/db';
import { addFair, ENQUEUE_TIMEOUT_MS, withTimeout } from '@catalogue/queue';
import { ValidationError } from '@catalogue/http';
import type { Deps } from '../deps';
import { LANG_FIELDS } from '../schemas/items.contract';
import { importEntities, type EntityImportOutcome, type WriteItem } from './entity-import';
import { addCounts, type ChangeSummary } from './import-summary';
import { bulkItems, byIndex, checkItems, type ItemError } from './item-check';
import { importParameters as writeParameters, type ParameterItem } from './parameter-import';

export interface ImportResult {
  success: boolean;
  imported: number;
  updated: number;
  skipped: number;
  errors: ItemError[];
}

export interface ParameterImportResult extends ImportResult {
  values_imported: number;
  values_updated: number;
}

export type SectionName = 'parameters' | 'categories' | 'brands' | 'products' | 'blogs';
/** The order of the specification: referenced entities first. */
export const SECTIONS: readonly SectionName[] = ['parameters', 'categories', 'brands', 'products', 'blogs'];
const SECTION_TYPE: Record<Exclude<SectionName, 'parameters'>, CatalogueEntityType> = {
  categories: 'category',
  brands: 'brand',
  products: 'product',
  blogs: 'blog',
};

type ImportDeps = Pick<Deps, 'db' | 'queues' | 'logger'>;

/**
 * Called in the import's transaction with its answer: an Idempotency-Key's outcome commits with
 * the rows it reports (a retry after a crash is answered what this import did, never counted
 * again as updates). The answer does not depend on the render jobs queued after the commit.
 */
export type RecordImport = (trx: Knex, answer: object) => Promise<void>;

/** How an import runs: its Idempotency-Key's recorder, and whether it is a dry run. */
export interface ImportRun {
  recordOutcome?: RecordImport;
  /**
   * Runs the import exactly as a real one, in its transaction, then rolls that transaction back
   * (an extension of the specification, docs/decisions/0099-dry-run-imports.md): the answer is the one
   * the real call would give, plus `dry_run: true` and `summary`. Nothing is recorded and no
   * render job is queued.
   */
  dryRun?: boolean;
}

/** What a dry run adds to the answer: what would be created, updated and left unchanged. */
export interface DryRunFields {
  dry_run: true;
  summary: ChangeSummary;
}

/** Thrown out of a dry run's transaction to roll it back (its answer is kept aside). */
class DryRunRollback extends Error {
  constructor() {
    super('dry run: rolled back');
  }
}

/**
 * `work` in one transaction, committed; on a dry run rolled back once `work` has answered (its
 * answer is returned as if committed). Rows, events and sequences' side tables all go with the
 * rollback; only sequence numbers taken stay taken (PostgreSQL never gives them back).
 */
async function inTransaction<T>(
  deps: ImportDeps,
  dryRun: boolean,
  work: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  if (!dryRun) return deps.db.transaction(work);
  const kept: { answer?: { value: T } } = {};
  try {
    await deps.db.transaction(async (trx) => {
      kept.answer = { value: await work(trx) };
      throw new DryRunRollback();
    });
  } catch (err) {
    if (err instanceof DryRunRollback && kept.answer) return kept.answer.value;
    throw err;
  }
  throw new Error('a dry run committed its transaction');
}

function entityCounts(outcome: EntityImportOutcome) {
  return {
    created: outcome.imported,
    updated: outcome.updated - outcome.unchanged,
    unchanged: outcome.unchanged,
  };
}

type V1Item = { id: string; name: string; [field: string]: unknown };

/**
 * v1 writes the `default` language: its plain strings become one-language maps. The item holds
 * only the v1 contract's fields (checkItems projected it), so nothing else reaches the write.
 */
function fromV1(type: V1EntityType, item: V1Item): WriteItem {
  const langFields: readonly string[] = LANG_FIELDS[type];
  const converted: WriteItem = { id: item.id };
  for (const [key, value] of Object.entries(item)) {
    if (key === 'id') continue;
    converted[key] = langFields.includes(key) ? { default: value } : value;
  }
  return converted;
}

function result(imported: number, updated: number, errors: ItemError[]): ImportResult {
  return { success: errors.length === 0, imported, updated, skipped: errors.length, errors: byIndex(errors) };
}

/** Content jobs go out after the commit, so the worker never reads a row that is not there yet. */
async function queueRenders(
  deps: ImportDeps,
  eshopId: number,
  type: CatalogueEntityType,
  externalIds: string[],
): Promise<void> {
  if (!externalIds.length) return;
  try {
    // Fair between eshops (libs/queue fair.ts); bounded, so a Redis outage does not hold the
    // answer: the items are committed and the sweeper queues them again.
    await withTimeout(
      addFair(deps.queues['render-content'], 'render-content', [
        { data: { eshop_id: eshopId, entity_type: type, external_ids: externalIds } },
      ]),
      ENQUEUE_TIMEOUT_MS,
    );
  } catch (err) {
    // The import is committed; the items wait in `generate` until re-queued (docs/decisions/0004-catalogue-api-v1-v2-imports.md).
    deps.logger.error(
      { err, eshopId, type, count: externalIds.length },
      'could not queue render-content jobs',
    );
  }
}

function checkV2(type: CatalogueEntityType, items: unknown[], multiImport: boolean) {
  return checkItems<WriteItem>(items, { version: 'v2', type, multiImport });
}

async function importChecked(
  deps: ImportDeps,
  eshopId: number,
  type: CatalogueEntityType,
  checked: ReturnType<typeof checkV2>,
  { recordOutcome, dryRun = false }: ImportRun,
): Promise<ImportResult | (ImportResult & DryRunFields)> {
  const { answer, toRender, counts } = await inTransaction(deps, dryRun, async (trx) => {
    const written = await importEntities(trx, eshopId, type, checked.accepted);
    // Numbered as the transaction commits (the eshop's counter is locked only then).
    await eventsRepository.append(trx, eshopId, written.events);
    const imported = result(written.imported, written.updated, [...checked.errors, ...written.errors]);
    if (!dryRun) await recordOutcome?.(trx, imported);
    return { answer: imported, toRender: written.toRender, counts: entityCounts(written) };
  });
  if (dryRun) return { ...answer, dry_run: true, summary: { [type]: counts } };
  await queueRenders(deps, eshopId, type, toRender);
  return answer;
}

export async function importV2(
  deps: ImportDeps,
  eshopId: number,
  type: CatalogueEntityType,
  body: unknown,
  run: ImportRun = {},
): Promise<ImportResult | (ImportResult & DryRunFields)> {
  return importChecked(deps, eshopId, type, checkV2(type, bulkItems(body), false), run);
}

export async function importV1(
  deps: ImportDeps,
  eshopId: number,
  type: V1EntityType,
  body: unknown,
  run: ImportRun = {},
): Promise<ImportResult | (ImportResult & DryRunFields)> {
  const checked = checkItems<V1Item>(bulkItems(body), { version: 'v1', type });
  return importChecked(
    deps,
    eshopId,
    type,
    {
      accepted: checked.accepted.map(({ index, item }) => ({ index, item: fromV1(type, item) })),
      errors: checked.errors,
    },
    run,
  );
}

export async function importParameters(
  deps: ImportDeps,
  eshopId: number,
  body: unknown,
  { recordOutcome, dryRun = false }: ImportRun = {},
): Promise<ParameterImportResult | (ParameterImportResult & DryRunFields)> {
  const checked = checkItems<ParameterItem>(bulkItems(body), { version: 'parameter' });
  return inTransaction(deps, dryRun, async (trx) => {
    const written = await writeParameters(trx, eshopId, checked.accepted, { summarize: dryRun });
    await eventsRepository.append(trx, eshopId, written.events);
    const answer: ParameterImportResult = {
      ...result(written.imported, written.updated, [...checked.errors, ...written.errors]),
      values_imported: written.valuesImported,
      values_updated: written.valuesUpdated,
    };
    if (dryRun) return { ...answer, dry_run: true, summary: { ...written.summary } };
    await recordOutcome?.(trx, answer);
    return answer;
  });
}

/**
 * All sections in one transaction, in the specification's order, so references may point
 * at items of earlier sections. Invalid items are skipped and reported per section; any
 * database failure rolls back every section.
 */
export async function multiImport(
  deps: ImportDeps,
  eshopId: number,
  body: unknown,
  { recordOutcome, dryRun = false }: ImportRun = {},
): Promise<{ success: boolean; results: Record<string, unknown> } & Partial<DryRunFields>> {
  if (!isRecord(body)) {
    throw new ValidationError({ body: ['The body must be an object with sections.'] });
  }
  const sections = body;
  const present = SECTIONS.filter((s) => sections[s] !== undefined);
  if (!present.length) {
    throw new ValidationError({
      body: [`The body must contain at least one of: ${SECTIONS.join(', ')}.`],
    });
  }
  const items = Object.fromEntries(present.map((s) => [s, bulkItems(sections[s], s)]));

  const renders: [CatalogueEntityType, string[]][] = [];
  const summary: ChangeSummary = {};
  const results = await inTransaction(deps, dryRun, async (trx) => {
    const out: Record<string, ImportResult | ParameterImportResult> = {};
    const events: NewEvent[] = [];
    for (const section of present) {
      if (section === 'parameters') {
        const checked = checkItems<ParameterItem>(items[section]!, { version: 'parameter' });
        const outcome = await writeParameters(trx, eshopId, checked.accepted, { summarize: dryRun });
        if (outcome.summary) {
          addCounts(summary, 'parameter', outcome.summary.parameter);
          addCounts(summary, 'parameter_value', outcome.summary.parameter_value);
        }
        events.push(...outcome.events);
        out[section] = {
          ...result(outcome.imported, outcome.updated, [...checked.errors, ...outcome.errors]),
          values_imported: outcome.valuesImported,
          values_updated: outcome.valuesUpdated,
        };
        continue;
      }
      const type = SECTION_TYPE[section];
      const checked = checkV2(type, items[section]!, true);
      const outcome = await importEntities(trx, eshopId, type, checked.accepted);
      renders.push([type, outcome.toRender]);
      addCounts(summary, type, entityCounts(outcome));
      events.push(...outcome.events);
      out[section] = result(outcome.imported, outcome.updated, [...checked.errors, ...outcome.errors]);
    }
    // Every section's events in one statement, in the sections' order.
    await eventsRepository.append(trx, eshopId, events);
    // `success` belongs to the whole request; the sections carry their counts and errors.
    const sectionResults = Object.entries(out).map(
      ([name, { success: _each, ...counts }]): [string, unknown] => [name, counts],
    );
    const answer = {
      success: Object.values(out).every((r) => r.success),
      results: Object.fromEntries(sectionResults),
    };
    if (!dryRun) await recordOutcome?.(trx, answer);
    return answer;
  });
  if (dryRun) return { ...results, dry_run: true, summary };
  for (const [type, ids] of renders) await queueRenders(deps, eshopId, type, ids);
  return results;
}
