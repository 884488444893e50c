import { isRecord } from '@catalogue/config';
import type Joi from 'joi';
import {
  contractOf,
  crossFieldRule,
  kindKey,
  projectItem,
  type ItemContract,
  type ItemKind,
} from '../schemas/items.contract';
import { fastItemCheck } from '../schemas/items.fast';
import { itemSchema } from '../schemas/items.schema';
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

/** Items are projected onto their contract, so an unknown key can only be a language code of a language map. */
const ITEM_MESSAGES = {
  'object.unknown': (field: string) => `The ${field} field is not a supported language.`,
};

/** The id to report for an item: only an id of the entity's type (null otherwise). */
function idOf(item: Record<string, unknown>, idType: 'string' | 'integer'): string | number | null {
  const id = item.id;
  if (idType === 'string') return typeof id === 'string' && isStorableText(id) ? id : null;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/**
 * Everything that checks one kind of item, all from its write contract: the projection onto the
 * contract's fields, `fast` (precompiled, schemas/items.fast.ts), which accepts exactly what Joi
 * would return unchanged, or less, `joi`, which sees only the items `fast` refuses, to report
 * them in the specification's words, and the cross-field rule, which runs on both paths.
 */
export interface ItemValidator {
  contract: ItemContract;
  fast: (item: unknown) => boolean;
  joi: Joi.ObjectSchema;
  rule: (item: Record<string, unknown>) => string[];
  idType: 'string' | 'integer';
}

const VALIDATORS = new Map<string, ItemValidator>();

export function itemValidator(kind: ItemKind): ItemValidator {
  const key = kindKey(kind);
  let validator = VALIDATORS.get(key);
  if (!validator) {
    validator = {
      contract: contractOf(kind),
      fast: fastItemCheck(kind),
      joi: itemSchema(kind),
      rule: crossFieldRule(kind),
      idType: kind.version === 'parameter' ? 'integer' : 'string',
    };
    VALIDATORS.set(key, validator);
  }
  return validator;
}

/**
 * The problems of one projected item in the specification's words, and the value to write when
 * there are none. Every problem is reported at once: the cross-field rule runs beside Joi.
 */
export function explainItem(
  validator: ItemValidator,
  item: Record<string, unknown>,
): { messages: string[]; value: unknown } {
  if (validator.fast(item)) return { messages: validator.rule(item), value: item };
  const result = validator.joi.validate(item, { abortEarly: false, convert: false });
  const messages = (result.error?.details ?? []).map((d) => fieldMessage(d, 'item', ITEM_MESSAGES));
  return { messages: [...messages, ...validator.rule(item)], value: result.value };
}

/**
 * Validates each item on its own: unknown fields dropped first (by the contract), then strict
 * JSON types, every problem of an item reported.
 */
export function checkItems<T extends { id: string | number }>(
  items: unknown[],
  kind: ItemKind,
): { accepted: CheckedItem<T>[]; errors: ItemError[] } {
  const validator = itemValidator(kind);
  const accepted: CheckedItem<T>[] = [];
  const errors: ItemError[] = [];
  items.forEach((raw, index) => {
    if (!isRecord(raw)) {
      errors.push({ index, id: null, errors: ['The item must be an object.'] });
      return;
    }
    const item = projectItem(validator.contract, raw);
    const unstorable = firstUnstorablePath(item);
    if (unstorable !== undefined) {
      errors.push({ index, id: idOf(item, validator.idType), errors: [unstorableTextMessage(unstorable)] });
      return;
    }
    const { messages, value } = explainItem(validator, item);
    if (messages.length) errors.push({ index, id: idOf(item, validator.idType), errors: messages });
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
