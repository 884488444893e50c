// Why: a cs or de storefront page showed the `default` (English) texts of untranslated widgets as
// if they were its own. Each eshop now says what its pages do with a text their language lacks
// (`content_fallback`: `fallback` shows `default` marked with `lang`, `omit` leaves the widget
// out) and which language its `default` texts are written in (`default_language`, the code of
// that marker; NULL: not said, marked `und`). Each content row stores the languages whose page
// shows only its own texts (`languages_complete`), computed when it is rendered; NULL for rows
// rendered before this migration, until their next render.
import type { Knex } from 'knex';

const DEFAULT_LANGUAGES = ['cs', 'sk', 'en', 'de', 'pl', 'hu', 'uk'];

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('eshops', (t) => {
    t.text('content_fallback').notNullable().defaultTo('fallback');
    t.text('default_language').nullable();
    t.check(`content_fallback in ('fallback', 'omit')`, [], 'eshops_content_fallback_known');
    t.check(
      `default_language is null or default_language in (${DEFAULT_LANGUAGES.map((l) => `'${l}'`).join(', ')})`,
      [],
      'eshops_default_language_known',
    );
  });
  await db.schema.alterTable('content', (t) => {
    t.jsonb('languages_complete').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('content', (t) => {
    t.dropColumn('languages_complete');
  });
  await db.schema.alterTable('eshops', (t) => {
    t.dropChecks(['eshops_content_fallback_known', 'eshops_default_language_known']);
    t.dropColumn('default_language');
    t.dropColumn('content_fallback');
  });
}
