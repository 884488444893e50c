/**
 * Whether `value` is an object with named properties (not null, not an array), as a type guard:
 * what untyped input (parsed JSON, a jsonb column, a request body, a caught error) holds under
 * each name is `unknown` until the reader checks it, so no cast claims more than was checked.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
