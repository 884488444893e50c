/**
 * Text PostgreSQL could not store (NUL, unpaired surrogates) is refused by licensedRouter for
 * every body, and by `entityIdSchema` in paths, in the catalogue API's wording.
 */
export { isStorableText as isValidText, unstorableTextErrors as invalidTextErrors } from '@catalogue/http';
