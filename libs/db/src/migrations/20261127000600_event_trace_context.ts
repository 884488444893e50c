// Why: an event is delivered to webhooks by a job the relay queues later, in a trace of its own,
// so "my import was slow" or "the webhook never came" had no thread from the request to the
// delivery. Each event keeps the W3C `traceparent` of the span that wrote it (null while tracing
// is off), and its delivery jobs continue that trace (docs/decisions/0060-tracing-one-request-followed-through.md, "Tracing").
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Nullable without a default: no table rewrite, old rows stay as they are.
  await db.raw(`alter table events
    add column traceparent text,
    add constraint events_traceparent_short check (char_length(traceparent) <= 128)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table events drop constraint events_traceparent_short, drop column traceparent`);
}
