import { parametersRepository, type Knex, type NewEvent, type StoredParameter } from '@catalogue/db';
import { sameJson } from './entity-import';
import type { ChangeCounts } from './import-summary';
import { withoutDuplicates, type CheckedItem, type ItemError } from './item-check';

export interface ParameterItem {
  id: number;
  name: string;
  /** Names per language; `default` and empty names are not kept (`name` is the default). */
  name_translations?: Record<string, string>;
  values?: { id: number; value: string }[];
}

/** The names a parameter shows per language: not `default` (that is `name`), not empty ones. */
function translations(names: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(names).filter(([lang, name]) => lang !== 'default' && name.trim() !== ''),
  );
}

/** What a parameter import did to parameters and to their values (a dry run's summary). */
export interface ParameterSummary {
  parameter: ChangeCounts;
  parameter_value: ChangeCounts;
}

/**
 * Tells the unchanged parameters and values from the updated ones: every sent parameter and
 * value is written, so only the rows read before the upsert (locked, parametersRepository.stored)
 * say which already held what was sent. `inserted` comes from the upsert (`xmax = 0`).
 */
function summaryOf(
  items: ParameterItem[],
  stored: Map<number, StoredParameter>,
  written: { externalId: number; inserted: boolean }[],
  values: { inserted: number; updated: number },
): ParameterSummary {
  const byId = new Map(items.map((item) => [item.id, item]));
  let unchanged = 0;
  for (const { externalId, inserted } of written) {
    const item = byId.get(externalId)!;
    const before = stored.get(externalId);
    if (inserted || !before || before.name !== item.name) continue;
    if (item.name_translations && !sameJson(translations(item.name_translations), before.nameTranslations))
      continue;
    unchanged += 1;
  }
  const valuesUnchanged = items
    .flatMap((item) => (item.values ?? []).map((v) => stored.get(item.id)?.values.get(v.id) === v.value))
    .filter(Boolean).length;
  const inserted = written.filter((p) => p.inserted).length;
  return {
    parameter: { created: inserted, updated: written.length - inserted - unchanged, unchanged },
    parameter_value: {
      created: values.inserted,
      updated: values.updated - valuesUnchanged,
      unchanged: valuesUnchanged,
    },
  };
}

/**
 * Creates or updates parameters and their values (values not sent are kept). Counts say
 * what existed before: `updated` and `values_updated` count existing rows. With `summarize`
 * (a dry run) the sent parameters are read and locked first, to say which were unchanged.
 */
export async function importParameters(
  trx: Knex.Transaction,
  eshopId: number,
  checked: CheckedItem<ParameterItem>[],
  opts: { summarize?: boolean } = {},
): Promise<{
  imported: number;
  updated: number;
  valuesImported: number;
  valuesUpdated: number;
  errors: ItemError[];
  /** For the caller to append last in its transaction: every parameter sent is written. */
  events: NewEvent[];
  summary?: ParameterSummary;
}> {
  const { accepted: items, errors } = withoutDuplicates(checked);
  const stored = opts.summarize
    ? await parametersRepository.stored(
        trx,
        eshopId,
        items.map(({ item }) => item.id),
      )
    : undefined;
  const counts = await parametersRepository.upsert(
    trx,
    eshopId,
    items.map(({ item }) => ({
      externalId: item.id,
      name: item.name,
      ...(item.name_translations && { nameTranslations: translations(item.name_translations) }),
    })),
    items.flatMap(({ item }) =>
      (item.values ?? []).map((v) => ({ parameterExternalId: item.id, externalId: v.id, value: v.value })),
    ),
  );
  return {
    imported: counts.parameters.inserted,
    updated: counts.parameters.updated,
    valuesImported: counts.values.inserted,
    valuesUpdated: counts.values.updated,
    errors,
    events: counts.written.map((p) => ({
      type: p.inserted ? 'item.created' : 'item.updated',
      entityType: 'parameter',
      externalId: String(p.externalId),
    })),
    ...(stored && {
      summary: summaryOf(
        items.map(({ item }) => item),
        stored,
        counts.written,
        counts.values,
      ),
    }),
  };
}
