/**
 * A jsonb document stored as it was given. Its shape belongs to the domain library that writes
 * and reads it (widget definitions and design overrides are libs/content's, typed again in
 * libs/content-store); libs/db is SQL only and knows no domain types.
 */
export type JsonDocument = Record<string, unknown>;
