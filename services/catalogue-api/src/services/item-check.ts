import type Joi from 'joi';
import { fieldMessage, HttpError, ValidationError } from '@catalogue/http';

/** Items per bulk request (imports, deletes, and each multi-import section). */
export const BULK_LIMIT = 100;

export interface ItemError {
  index: number;
  id: string | number | null;
  errors: string[];
}

export interface CheckedItem<T> {
  index: number;
  item: T;
}

/** 422 with the specification's body for a request over the bulk limit. */
export class BulkLimitError extends HttpError {
  constructor() {
    super(422, { success: false, errors: { bulk: [`Maximum ${BULK_LIMIT} items allowed for bulk import`] } });
  }
}

/** The items of a bulk body: an array of at most BULK_LIMIT elements, or a request-level error. */
export function bulkItems(body: unknown, field = 'body'): unknown[] {
  if (!Array.isArray(body))
    throw new ValidationError({ [field]: [`The ${field} must be an array of items.`] });
  if (body.length > BULK_LIMIT) throw new BulkLimitError();
  return body;
}

/** Items ignore unknown fields, so an unknown key can only be a language code of a language map. */
const ITEM_MESSAGES = {
  'object.unknown': (field: string) => `The ${field} field is not a supported language.`,
};

function idOf(item: unknown): string | number | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/**
 * Validates each item on its own (strict JSON types, every problem reported), then rejects
 * repeated ids: the first valid occurrence is written, later ones are reported.
 */
export function checkItems<T extends { id: string | number }>(
  items: unknown[],
  schema: Joi.ObjectSchema,
  extraCheck: (item: T) => string[] = () => [],
): { accepted: CheckedItem<T>[]; errors: ItemError[] } {
  const accepted: CheckedItem<T>[] = [];
  const errors: ItemError[] = [];
  const seen = new Set<string | number>();
  items.forEach((raw, index) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push({ index, id: null, errors: ['The item must be an object.'] });
      return;
    }
    const { error, value } = schema.validate(raw, { abortEarly: false, convert: false });
    const messages = error
      ? error.details.map((d) => fieldMessage(d, 'item', ITEM_MESSAGES))
      : extraCheck(value as T);
    if (!messages.length && seen.has((value as T).id)) messages.push('The id field has a duplicate value.');
    if (messages.length) {
      errors.push({ index, id: idOf(raw), errors: messages });
      return;
    }
    seen.add((value as T).id);
    accepted.push({ index, item: value as T });
  });
  return { accepted, errors };
}

export function byIndex(errors: ItemError[]): ItemError[] {
  return errors.sort((a, b) => a.index - b.index);
}
