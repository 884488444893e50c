import type { CatalogueEntityType } from '@catalogue/config';
import { catalogueRepository, eventsRepository, type Knex } from '@catalogue/db';
import { isStorableText } from '@catalogue/http';
import { bulkItems, byIndex, type ItemError } from './item-check';

const NOT_FOUND: Record<CatalogueEntityType, string> = {
  product: 'Product not found',
  category: 'Category not found',
  brand: 'Brand not found',
  blog: 'Blog not found',
};

export interface DeleteResult {
  success: boolean;
  deleted: number;
  skipped: number;
  errors: ItemError[];
}

/** An element of a DELETE body: an id string or `{id}`; anything else is reported. */
function idOf(element: unknown): string | undefined {
  const id =
    typeof element === 'object' && element !== null ? ('id' in element ? element.id : undefined) : element;
  return typeof id === 'string' && id.length > 0 && id.length <= 255 && isStorableText(id) ? id : undefined;
}

/**
 * Soft-deletes the listed items in one statement, with an `item.deleted` event for each in the
 * same transaction. Missing or already deleted items are skipped with the Not found message
 * (and have no event); a repeated id counts once.
 */
export async function softDelete(
  db: Knex,
  eshopId: number,
  type: CatalogueEntityType,
  body: unknown,
): Promise<DeleteResult> {
  const elements = bulkItems(body);
  const errors: ItemError[] = [];
  const wanted = new Map<string, number>();
  elements.forEach((element, index) => {
    const id = idOf(element);
    if (id === undefined) {
      errors.push({
        index,
        id: null,
        errors: ['The id field must be a non-empty string of at most 255 characters of valid text.'],
      });
    } else if (wanted.has(id)) {
      errors.push({ index, id, errors: ['The id field has a duplicate value.'] });
    } else {
      wanted.set(id, index);
    }
  });
  const deleted = await db.transaction(async (trx) => {
    const rows = await catalogueRepository.softDelete(trx, type, eshopId, [...wanted.keys()]);
    // A tombstone per deleted item, in the delete's transaction.
    await eventsRepository.append(
      trx,
      eshopId,
      [...rows].sort().map((externalId) => ({ type: 'item.deleted', entityType: type, externalId })),
    );
    return rows;
  });
  for (const [id, index] of wanted) {
    if (!deleted.has(id)) errors.push({ index, id, errors: [NOT_FOUND[type]] });
  }
  return {
    success: errors.length === 0,
    deleted: deleted.size,
    skipped: errors.length,
    errors: byIndex(errors),
  };
}
