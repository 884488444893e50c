// Why: an endpoint's secret could not be replaced without a moment where the receiver rejects
// deliveries (it still verifies with the old one) or the service signs with a secret the receiver
// does not know yet. Rotation keeps the previous secret next to the new one until
// `previous_secret_expires_at`; deliveries meanwhile carry both signatures (Standard Webhooks
// allows several in `webhook-signature`), so the receiver can switch at any time in the window
// (docs/decisions/0046-webhook-secret-rotation.md, "Webhook secret rotation").
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table webhook_endpoints
    add column previous_secret text,
    add column previous_secret_expires_at timestamptz(6),
    add constraint webhook_endpoints_previous_secret_window
      check ((previous_secret is null) = (previous_secret_expires_at is null))`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`alter table webhook_endpoints
    drop constraint webhook_endpoints_previous_secret_window,
    drop column previous_secret_expires_at,
    drop column previous_secret`);
}
