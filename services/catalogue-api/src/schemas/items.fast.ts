import Ajv, { _, type AnySchemaObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import { CATALOGUE_API_LANGUAGES } from '@catalogue/config';
import {
  contractOf,
  kindKey,
  LIMITS,
  type FieldRule,
  type ItemContract,
  type ItemKind,
} from './items.contract';
import { urlSchema } from './items.schema';

/**
 * Precompiled (Ajv) twins of the Joi item schemas, both compiled from the write contracts
 * (items.contract.ts), for the import hot path: Joi costs about 3.5 ms of CPU per 100 items
 * (docs/benchmarks.md). An item the twin accepts is used as projected; any other item goes
 * through Joi, which writes the specification's messages. So a twin may be stricter than Joi (a
 * false "no" only costs time), never looser, and must accept only items for which Joi returns a
 * value deep-equal to the item (no defaults, no conversions: Joi runs with `convert: false`).
 * test/item-validators.test.ts proves both for a table of inputs and for generated ones.
 */

export type { ItemKind };

type Schema = AnySchemaObject;

/**
 * Joi checks `uri` with this regex (plus two refused values, below). Reading the rule through
 * Joi's extension API keeps the twin on the very regex Joi uses, across Joi upgrades; a Joi
 * that no longer exposes it fails loudly at start instead of silently checking less.
 */
function joiUriCheck(): (text: string) => boolean {
  const rule = urlSchema.$_getRule('uri');
  const regex = rule && 'regex' in rule ? rule.regex : undefined;
  if (!(regex instanceof RegExp) || regex.global || regex.sticky) {
    throw new Error('joi no longer exposes the uri rule regex: update schemas/items.fast.ts');
  }
  // Joi refuses these before its regex ("scheme:/ is technically valid but makes no sense").
  return (text) => text !== 'http:/' && text !== 'https:/' && regex.test(text);
}

function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: false, // only "valid or not" matters: Joi reports the errors
    messages: false,
    ownProperties: true, // JSON bodies have only own properties; never look up the prototype
    allowUnionTypes: true,
  });
  // Joi counts string lengths in UTF-16 code units, Ajv's maxLength in code points: an emoji is
  // 2 for Joi and 1 for Ajv. This keyword counts like Joi.
  ajv.addKeyword({
    keyword: 'maxUnits',
    type: 'string',
    schemaType: 'number',
    code(cxt: KeywordCxt) {
      cxt.fail(_`${cxt.data}.length > ${cxt.schema}`);
    },
  });
  // Joi's `array.unique('id')` of parameter values (ids are already known to be integers).
  ajv.addKeyword({
    keyword: 'uniqueIds',
    type: 'array',
    schemaType: 'boolean',
    validate: (_schema: boolean, data: { id?: unknown }[]) =>
      new Set(data.map((v) => v?.id)).size === data.length,
  });
  ajv.addFormat('joi-http-uri', { type: 'string', validate: joiUriCheck() });
  return ajv;
}

const NON_DEFAULT = CATALOGUE_API_LANGUAGES.filter((l) => l !== 'default');

const text = (max: number, opts: { nonEmpty?: boolean; nullable?: boolean } = {}): Schema => ({
  type: opts.nullable ? ['string', 'null'] : 'string',
  // At least one code point is the same as at least one code unit.
  ...(opts.nonEmpty && { minLength: 1 }),
  maxUnits: max,
});

function ruleSchema(rule: FieldRule): Schema {
  switch (rule.kind) {
    case 'text':
      return text(rule.max, rule);
    case 'url':
      return { ...text(LIMITS.url, rule), format: 'joi-http-uri' };
    case 'boolean':
      return { type: 'boolean' };
    case 'positiveInteger':
      return { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
    case 'langMap': {
      const value = (nullable: boolean) => text(LIMITS[rule.field], { nullable });
      return {
        type: 'object',
        properties: Object.fromEntries([
          ['default', value(false)],
          ...NON_DEFAULT.map((lang) => [lang, value(rule.nullable)]),
        ]),
        additionalProperties: false,
        ...(rule.field === 'name' && { minProperties: 1 }),
      };
    }
    case 'array':
      return {
        type: 'array',
        maxItems: rule.max,
        items: ruleSchema(rule.items),
        ...(rule.uniqueIds && { uniqueIds: true }),
      };
    case 'object':
      return objectSchema(rule.contract);
  }
}

/** Exactly the contract's fields, like the Joi schema (items are projected before the check). */
function objectSchema(contract: ItemContract): Schema {
  return {
    type: 'object',
    required: [...contract.required],
    properties: Object.fromEntries(
      Object.entries(contract.fields).map(([field, rule]) => [field, ruleSchema(rule)]),
    ),
    additionalProperties: false,
  };
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The precompiled check of one kind of (projected) item (compiled on first use, then kept). */
export function fastItemCheck(kind: ItemKind): (item: unknown) => boolean {
  const key = kindKey(kind);
  let validate = compiled.get(key);
  if (!validate) {
    ajv ??= createAjv();
    validate = ajv.compile(objectSchema(contractOf(kind)));
    compiled.set(key, validate);
  }
  return validate;
}
