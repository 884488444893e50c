import { parametersRepository, type Knex, type NewEvent } from '@catalogue/db';
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

/**
 * Creates or updates parameters and their values (values not sent are kept). Counts say
 * what existed before: `updated` and `values_updated` count existing rows.
 */
export async function importParameters(
  trx: Knex.Transaction,
  eshopId: number,
  checked: CheckedItem<ParameterItem>[],
): Promise<{
  imported: number;
  updated: number;
  valuesImported: number;
  valuesUpdated: number;
  errors: ItemError[];
  /** For the caller to append last in its transaction: every parameter sent is written. */
  events: NewEvent[];
}> {
  const { accepted: items, errors } = withoutDuplicates(checked);
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
  };
}
