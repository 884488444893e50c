/**
 * Reading what arrives untyped (a thrown value, a parsed body) without asserting its shape: the
 * fields of an object are `unknown` until each is checked where it is used.
 */

/** Whether `value` is an object (an array included) whose fields can be read. */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null;
}

/** The `message` of a thrown value, for a log line (undefined when it carries none). */
export function messageOf(err: unknown): unknown {
  return isObject(err) ? err.message : undefined;
}
