// The committed table types (libs/db/src/schema.generated.ts) are what the migrations make: a
// migration that adds, drops, renames or retypes a column fails here until `npm run gen:db-types`
// is run, and the repositories then fail to build wherever they use the old column.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateLatest } from '@catalogue/db';
import { freshSiblingDatabase, type SiblingDatabase } from '@catalogue/testing';
import { generateSchemaTypes } from '../src/schema-types';

const GENERATED = join(__dirname, '../src/schema.generated.ts');
const PRETTIER = join(__dirname, '../../../node_modules/prettier/bin/prettier.cjs');

describe('the committed table types', () => {
  // A database of its own, migrated from nothing: the run's shared one may hold other files' DDL.
  let sibling: SiblingDatabase;

  beforeAll(async () => {
    sibling = await freshSiblingDatabase('schema_types');
    await migrateLatest(sibling.db);
  });

  afterAll(() => sibling?.drop());

  test('when the migrated schema is read again, then schema.generated.ts is what `npm run gen:db-types` writes', async () => {
    // Arrange
    const committed = readFileSync(GENERATED, 'utf8');

    // Act: as scripts/gen-db-types.mjs, prettier in a child process (its API loads ES modules,
    // which Jest's loader cannot).
    const generated = execFileSync(process.execPath, [PRETTIER, '--stdin-filepath', GENERATED], {
      input: await generateSchemaTypes(sibling.db),
      encoding: 'utf8',
    });

    // Assert
    expect(committed).toBe(generated);
  });
});
