import type Joi from 'joi';

/** The path of a joi error detail as clients name fields: `name.cs`, `images.0`. */
export function fieldPath(detail: Joi.ValidationErrorItem, fallback = 'body'): string {
  return detail.path.length ? detail.path.join('.') : fallback;
}

/**
 * A joi error detail as one message in the specification's form ("The name.cs field is
 * required."), so item errors and request errors read the same everywhere. A caller can give
 * its own text with `overrides` (by joi error type).
 */
export function fieldMessage(
  detail: Joi.ValidationErrorItem,
  fallback = 'body',
  overrides: Partial<Record<string, (field: string) => string>> = {},
): string {
  const field = fieldPath(detail, fallback);
  const override = overrides[detail.type];
  if (override) return override(field);
  // The rule's limit as joi gives it (a number, or a reference's value), only ever quoted.
  const limit: unknown = detail.context?.limit;
  switch (detail.type) {
    case 'any.required':
    case 'string.empty':
      return `The ${field} field is required.`;
    case 'string.base':
      return `The ${field} field must be a string.`;
    case 'string.max':
      return `The ${field} field must not be greater than ${limit} characters.`;
    case 'string.min':
      return `The ${field} field must be at least ${limit} characters.`;
    case 'string.uri':
    case 'string.uriCustomScheme':
      return `The ${field} field must be a valid URL.`;
    case 'boolean.base':
      return `The ${field} field must be true or false.`;
    case 'number.base':
    case 'number.integer':
    case 'number.unsafe':
    case 'number.infinity':
      return `The ${field} field must be an integer.`;
    case 'number.min':
      return `The ${field} field must be at least ${limit}.`;
    case 'number.max':
      return `The ${field} field must not be greater than ${limit}.`;
    case 'array.base':
      return `The ${field} field must be an array.`;
    case 'array.max':
      return `The ${field} field must not have more than ${limit} items.`;
    case 'array.min':
      return `The ${field} field must have at least ${limit} items.`;
    case 'array.unique':
      return `The ${field} field has a duplicate value.`;
    case 'object.base':
      return `The ${field} field must be an object.`;
    case 'object.min':
      return `The ${field} field must not be empty.`;
    case 'object.unknown':
      return `The ${field} field is not allowed.`;
    case 'any.only':
      return `The selected ${field} is invalid.`;
    case 'date.format':
      if (typeof detail.context?.format === 'string') {
        return `The ${field} field must match the format ${detail.context.format}.`;
      }
      return `The ${field} field format is invalid.`;
    case 'string.pattern.base':
      return `The ${field} field format is invalid.`;
    default:
      return `The ${field} field is invalid.`;
  }
}
