import Joi from 'joi';
import { CATALOGUE_API_LANGUAGES } from '@catalogue/config';
import {
  contractOf,
  kindKey,
  LIMITS,
  type FieldRule,
  type ItemContract,
  type ItemKind,
} from './items.contract';

/**
 * The wording validator: Joi schemas compiled from the write contracts (items.contract.ts).
 * Joi's error details become the specification's messages (`fieldMessage`); it sees only the
 * items the precompiled check (items.fast.ts) refuses.
 */

const NON_DEFAULT = CATALOGUE_API_LANGUAGES.filter((l) => l !== 'default');

/** An http(s) URL (items.fast.ts reads its `uri` rule: keep it one schema). */
export const urlSchema = Joi.string()
  .max(LIMITS.url)
  .uri({ scheme: ['http', 'https'] });

function ruleSchema(rule: FieldRule): Joi.Schema {
  switch (rule.kind) {
    case 'text': {
      const text = Joi.string().max(rule.max);
      const sized = rule.nonEmpty ? text.min(1) : text.allow('');
      return rule.nullable ? sized.allow(null) : sized;
    }
    case 'url':
      return rule.nullable ? urlSchema.allow(null) : urlSchema;
    case 'boolean':
      return Joi.boolean();
    case 'positiveInteger':
      return Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER);
    case 'langMap': {
      // Known language codes only; in multi-import a non-default language may be null.
      const text = Joi.string().allow('').max(LIMITS[rule.field]);
      const map = Joi.object()
        .pattern(Joi.string().valid('default'), text)
        .pattern(Joi.string().valid(...NON_DEFAULT), rule.nullable ? text.allow(null) : text);
      return rule.field === 'name' ? map.min(1) : map;
    }
    case 'array': {
      const list = Joi.array().items(ruleSchema(rule.items)).max(rule.max);
      return rule.uniqueIds ? list.unique('id') : list;
    }
    case 'object':
      return objectSchema(rule.contract);
  }
}

/** Exactly the contract's fields: items are projected onto it before they are checked. */
function objectSchema(contract: ItemContract): Joi.ObjectSchema {
  return Joi.object(
    Object.fromEntries(
      Object.entries(contract.fields).map(([field, rule]) => {
        const schema = ruleSchema(rule);
        return [field, contract.required.includes(field) ? schema.required() : schema];
      }),
    ),
  );
}

const SCHEMAS = new Map<string, Joi.ObjectSchema>();

/** The Joi schema of one kind of item (built once, then kept). */
export function itemSchema(kind: ItemKind): Joi.ObjectSchema {
  const key = kindKey(kind);
  let schema = SCHEMAS.get(key);
  if (!schema) SCHEMAS.set(key, (schema = objectSchema(contractOf(kind))));
  return schema;
}
