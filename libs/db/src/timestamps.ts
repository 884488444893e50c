// Timestamps are formatted by Postgres: JS Dates keep only milliseconds, and the
// specifications show microseconds.

/** ISO 8601 UTC with microseconds and `Z` (catalogue API v2). */
export function isoMicros(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** ISO 8601 with microseconds and a numeric UTC offset (listing rows, white-label API). */
export function isoOffset(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')`;
}
