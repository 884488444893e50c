// Writes the files made from libs/config's variables table (libs/config/src/variables.ts): the
// Helm chart's `config` schema and defaults and its readers of each variable, the README's
// configuration table and .env.example.
// Run as `npm run gen:config` (it compiles libs/config first).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { renderConfigFiles } = createRequire(import.meta.url)(join(root, 'libs/config/dist/index.js'));
const paths = {
  schema: join(root, 'helm/catalogue-content/values.schema.json'),
  values: join(root, 'helm/catalogue-content/values.yaml'),
  readme: join(root, 'README.md'),
  envExample: join(root, '.env.example'),
  readers: join(root, 'helm/catalogue-content/files/readers.yaml'),
};
const current = Object.fromEntries(
  Object.entries(paths).map(([key, path]) => [key, existsSync(path) ? readFileSync(path, 'utf8') : '']),
);
const options = await prettier.resolveConfig(paths.schema);
const next = await renderConfigFiles(current, (text, parser) =>
  prettier.format(text, { ...options, parser }),
);
for (const [key, path] of Object.entries(paths)) {
  if (next[key] !== current[key]) {
    writeFileSync(path, next[key]);
    console.log(`wrote ${path.slice(root.length + 1)}`);
  }
}
