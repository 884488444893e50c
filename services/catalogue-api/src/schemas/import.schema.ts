import Joi from 'joi';

export interface ImportQuery {
  /** Run the import and roll it back (an extension: docs/decisions/0099-dry-run-imports.md). */
  dry_run: boolean;
}

/**
 * Query of every import (v1, v2, parameters, multi-import): `dry_run` as the list flags read it,
 * `true`/`1` or `false`/`0`, an empty value the same as none; anything else is a 422 of the
 * parameter. Other parameters are ignored, as they were before the imports read their query.
 */
export const importQuery = Joi.object<ImportQuery, true>({
  dry_run: Joi.boolean().truthy('1').falsy('0').empty('').default(false),
}).unknown(true);
