// Writes the files made from libs/queue's table of queues (QUEUES in libs/queue/src/jobs.ts): each
// consumer's queue list and the queue classes in the Helm chart's _helpers.tpl, and the README's
// queue table. Run as `npm run gen:queues` (it compiles libs/queue first); with --check it
// writes nothing and fails when a committed file differs (npm run lint).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { renderQueueFiles } = createRequire(import.meta.url)(join(root, 'libs/queue/dist/index.js'));
const check = process.argv.includes('--check');
const paths = {
  helpers: join(root, 'helm/catalogue-content/templates/_helpers.tpl'),
  readme: join(root, 'README.md'),
};
const current = Object.fromEntries(
  Object.entries(paths).map(([key, path]) => [key, readFileSync(path, 'utf8')]),
);
const next = renderQueueFiles(current);
let stale = 0;
for (const [key, path] of Object.entries(paths)) {
  if (next[key] === current[key]) continue;
  const file = path.slice(root.length + 1);
  if (check) {
    console.error(`${file} differs from libs/queue's QUEUES: run npm run gen:queues`);
    stale += 1;
  } else {
    writeFileSync(path, next[key]);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = stale ? 1 : 0;
