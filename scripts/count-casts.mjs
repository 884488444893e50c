// Counts type assertions (`x as T`, `<T>x`; not `as const`) in the repository's non-test
// TypeScript, with the TypeScript parser (so `as` in SQL text, comments and imports is not
// counted), and the unchecked result annotations of knex calls in libs/db
// (`.select<T>()`, `.first<T>()`, `.returning<T>()`, `.raw<T>()`, `.pluck<T>()`, `.count<T>()`).
// Run as `node scripts/count-casts.mjs [--list]`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');
const list = process.argv.includes('--list');
const files = execFileSync('git', ['ls-files', '*.ts', '*.mts'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !/(^|\/)(test|tests)\//.test(f) && !/\.test\.ts$|\.d\.ts$/.test(f));
const ANNOTATED = new Set(['select', 'first', 'returning', 'raw', 'pluck', 'count']);
let lines = 0;
let casts = 0;
let dbCasts = 0;
let annotations = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  lines += text.split('\n').length;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const inDb = file.startsWith('libs/db/');
  const visit = (node) => {
    const isCast =
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const');
    if (isCast) {
      casts += 1;
      if (inDb) dbCasts += 1;
      if (list) console.log(`cast ${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    if (
      inDb &&
      ts.isCallExpression(node) &&
      node.typeArguments?.length &&
      ts.isPropertyAccessExpression(node.expression) &&
      ANNOTATED.has(node.expression.name.text)
    ) {
      annotations += 1;
      if (list)
        console.log(`annotation ${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
console.log(
  `${files.length} files, ${lines} lines: ${casts} casts (${((casts * 1000) / lines).toFixed(1)} per 1,000 lines), ` +
    `${dbCasts} in libs/db; ${annotations} result annotations in libs/db`,
);
