import type Joi from 'joi';
import {
  fieldMessage,
  firstUnstorablePath,
  HttpError,
  isStorableText,
  unstorableTextMessage,
  ValidationError,
} from '@catalogue/http';

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
    super(422, 'bulk_limit_exceeded', {
      success: false,
      errors: { bulk: [`Maximum ${BULK_LIMIT} items allowed for bulk import`] },
    });
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

/** The id to report for an item: only an id of the entity's type (null otherwise). */
function idOf(item: unknown, idType: 'string' | 'integer'): string | number | null {
  const id = (item as { id?: unknown } | null)?.id;
  if (idType === 'string') return typeof id === 'string' && isStorableText(id) ? id : null;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/**
 * The checks of one kind of item: `fast` (precompiled, schemas/items.fast.ts) accepts exactly
 * what Joi would return unchanged, or less; Joi sees only the items it refuses, to report them
 * in the specification's words.
 */
export interface ItemSchemas {
  joi: Joi.ObjectSchema;
  fast: (item: unknown) => boolean;
}

/** Validates each item on its own: strict JSON types, every problem of an item reported. */
export function checkItems<T extends { id: string | number }>(
  items: unknown[],
  schemas: ItemSchemas,
  extraCheck: (item: T) => string[] = () => [],
  idType: 'string' | 'integer' = 'string',
): { accepted: CheckedItem<T>[]; errors: ItemError[] } {
  const accepted: CheckedItem<T>[] = [];
  const errors: ItemError[] = [];
  items.forEach((raw, index) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push({ index, id: null, errors: ['The item must be an object.'] });
      return;
    }
    const unstorable = firstUnstorablePath(raw);
    if (unstorable !== undefined) {
      errors.push({ index, id: idOf(raw, idType), errors: [unstorableTextMessage(unstorable)] });
      return;
    }
    let messages: string[];
    let value: unknown = raw;
    if (schemas.fast(raw)) {
      messages = extraCheck(raw as T);
    } else {
      const result = schemas.joi.validate(raw, { abortEarly: false, convert: false });
      value = result.value;
      messages = result.error
        ? result.error.details.map((d) => fieldMessage(d, 'item', ITEM_MESSAGES))
        : extraCheck(value as T);
    }
    if (messages.length) errors.push({ index, id: idOf(raw, idType), errors: messages });
    else accepted.push({ index, item: value as T });
  });
  return { accepted, errors };
}

/**
 * Repeated ids among items that passed every check: the first occurrence is written, later
 * ones are reported.
 */
export function withoutDuplicates<T extends { id: string | number }>(
  items: CheckedItem<T>[],
): { accepted: CheckedItem<T>[]; errors: ItemError[] } {
  const seen = new Set<string | number>();
  const accepted: CheckedItem<T>[] = [];
  const errors: ItemError[] = [];
  for (const checked of items) {
    if (seen.has(checked.item.id)) {
      errors.push({
        index: checked.index,
        id: checked.item.id,
        errors: ['The id field has a duplicate value.'],
      });
    } else {
      seen.add(checked.item.id);
      accepted.push(checked);
    }
  }
  return { accepted, errors };
}

export function byIndex(errors: ItemError[]): ItemError[] {
  return errors.sort((a, b) => a.index - b.index);
}
