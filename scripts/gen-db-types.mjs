// Writes libs/db/src/schema.generated.ts, the tables' column types, from the schema the
// migrations make: it migrates a scratch database of its own on the test database server
// (TEST_DATABASE_SERVER_URL, default the local one), reads its catalog and drops it.
// Run as `npm run gen:db-types` after adding a migration. `--check` writes nothing and fails
// when the committed file is not what it would write (part of `npm run lint`).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// The migrations and the generator run from libs/db's compiled JavaScript. A migration that
// renames a column makes the repositories fail to type-check until this file is written (that
// is its point), and tsc still emits then: its errors are for after, not a reason to stop.
try {
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', join(root, 'libs/db')], {
    stdio: 'ignore',
  });
} catch {
  console.log('libs/db has type errors (see `npx tsc -b` once the file is written); generating anyway');
}
const { createKnex, dropDatabase, ensureDatabase, migrateLatest, withDatabase } = require(
  join(root, 'libs/db/dist/index.js'),
);
const { generateSchemaTypes } = require(join(root, 'libs/db/dist/schema-types.js'));

const target = join(root, 'libs/db/src/schema.generated.ts');
const server = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = withDatabase(server, `catalogue_gen_types_${randomBytes(4).toString('hex')}`);
await ensureDatabase(url);
try {
  const db = createKnex({ url, poolMin: 0, poolMax: 1, statementTimeoutMs: 60_000 });
  try {
    await migrateLatest(db);
    const text = await generateSchemaTypes(db);
    const options = await prettier.resolveConfig(target);
    const formatted = await prettier.format(text, { ...options, filepath: target });
    const relative = target.slice(root.length + 1);
    if (process.argv.includes('--check')) {
      if (readFileSync(target, 'utf8') !== formatted) {
        console.error(
          `${relative} is not what the migrations make: run \`npm run gen:db-types\` and commit it`,
        );
        process.exitCode = 1;
      }
    } else {
      writeFileSync(target, formatted);
      console.log(`wrote ${relative}`);
    }
  } finally {
    await db.destroy();
  }
} finally {
  await dropDatabase(url);
}
