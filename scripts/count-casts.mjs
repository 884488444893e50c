// Counts type assertions (`x as T`, `<T>x`; not `as const`) in the repository's non-test
// TypeScript, with the TypeScript parser (so `as` in SQL text, comments and imports is not
// counted), and the unchecked result annotations of knex calls in libs/db
// (`.select<T>()`, `.first<T>()`, `.returning<T>()`, `.raw<T>()`, `.pluck<T>()`, `.count<T>()`).
// Run as `node scripts/count-casts.mjs [--list] [--check]`: prints the casts per 1,000 lines of
// each package and of the repository; --check (npm run lint) fails on any `as never` and when the
// repository's ratio is above BUDGET_PER_1000 or its count above CEILING (lowered as casts go, so
// that the count only falls until the budget is met).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');
const list = process.argv.includes('--list');
const check = process.argv.includes('--check');
/** The target: casts per 1,000 lines of non-test TypeScript. */
const BUDGET_PER_1000 = 3;
/** The most casts the repository may hold today (lowered as casts go, so the count only falls). */
const CEILING = 78;
/** package (first two path segments) -> [lines, casts] */
const packages = new Map();
let asNever = 0;
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
  const fileLines = text.split('\n').length;
  lines += fileLines;
  const pkg = file.split('/').slice(0, 2).join('/');
  const counts = packages.get(pkg) ?? [0, 0];
  counts[0] += fileLines;
  packages.set(pkg, counts);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const inDb = file.startsWith('libs/db/');
  const visit = (node) => {
    const isCast =
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const');
    if (isCast) {
      casts += 1;
      counts[1] += 1;
      if (node.type.kind === ts.SyntaxKind.NeverKeyword) {
        asNever += 1;
        console.log(`as never: ${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      }
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
const per1000 = (n, of) => ((n * 1000) / of).toFixed(1);
for (const [pkg, [pkgLines, pkgCasts]] of [...packages].sort((a, b) => b[1][1] - a[1][1]))
  if (pkgCasts)
    console.log(
      `  ${pkg}: ${pkgCasts} casts in ${pkgLines} lines (${per1000(pkgCasts, pkgLines)} per 1,000)`,
    );
if (check) {
  const problems = [];
  if (asNever) problems.push(`${asNever} 'as never' (none may remain)`);
  if (casts > CEILING)
    problems.push(`${casts} casts, above the ceiling of ${CEILING} (remove one, or type it)`);
  const ratio = (casts * 1000) / lines;
  if (ratio > BUDGET_PER_1000)
    console.log(
      `budget: ${ratio.toFixed(2)} per 1,000 lines, target ${BUDGET_PER_1000} (not met; ceiling ${CEILING})`,
    );
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exitCode = 1;
  }
}
