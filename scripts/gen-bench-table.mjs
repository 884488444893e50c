// Writes the table of current benchmark figures into docs/benchmarks.md, between the markers
// `<!-- bench-table:start -->` and `<!-- bench-table:end -->`, from the last recorded run of each
// benchmark: docs/benchmarks/<bench>.json, written by `npm run bench:<bench> -- --record`
// (tests/bench/results.ts, RunRecord). A benchmark without a record says "not recorded yet".
//
//   node scripts/gen-bench-table.mjs           write the table
//   node scripts/gen-bench-table.mjs --check   fail when the table is not what the records give
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const RECORDS = join(ROOT, 'docs', 'benchmarks');
const START = '<!-- bench-table:start -->';
const END = '<!-- bench-table:end -->';

/** Every benchmark the package defines (`bench:<name>` scripts), in the order they are listed. */
function benches() {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
  return Object.keys(scripts)
    .filter((name) => name.startsWith('bench:'))
    .map((name) => name.slice('bench:'.length));
}

/** The bench's recorded runs: `<bench>.json` (every scenario) and `<bench>--<scenarios>.json` (some). */
function readRecords(bench) {
  if (!existsSync(RECORDS)) return [];
  const files = readdirSync(RECORDS)
    .filter((file) => file === `${bench}.json` || (file.startsWith(`${bench}--`) && file.endsWith('.json')))
    .sort();
  return files.map((file) => {
    const record = JSON.parse(readFileSync(join(RECORDS, file), 'utf8'));
    for (const key of ['bench', 'ranAt', 'machine', 'load', 'figures']) {
      if (!(key in record)) throw new Error(`docs/benchmarks/${file} has no "${key}"`);
    }
    return record;
  });
}

const number = (value) => {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  // 'negative': a value that rounds to zero is printed 0, not -0.
  return value.toLocaleString('en-US', {
    minimumFractionDigits: 0,
    maximumFractionDigits: digits,
    signDisplay: 'negative',
  });
};
const withUnit = (value, unit) => (unit === 'ratio' ? number(value) : `${number(value)} ${unit}`);
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function recordRows(bench, record) {
  const m = record.machine;
  const machine = `${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node.replace(/^v/, '')}`;
  const load = `${number(record.load.start)} → ${number(record.load.end)}`;
  const ran = `${record.ranAt.slice(0, 10)} ${record.ranAt.slice(11, 16)} UTC`;
  if (record.figures.length === 0)
    return [
      `| \`bench:${bench}\` | recorded without figures | | | | | | ${cell(machine)} | ${load} | ${ran} |`,
    ];
  return record.figures.map((f) => {
    const met = f.met === undefined ? '' : f.met ? 'yes' : '**no**';
    return (
      `| \`bench:${bench}\` | ${cell(f.name)} | ${withUnit(f.min, f.unit)} | ${withUnit(f.median, f.unit)} | ` +
      `${withUnit(f.max, f.unit)} | ${cell(f.target ?? '')} | ${met} | ${cell(machine)} | ${load} | ${ran} |`
    );
  });
}

function table() {
  const known = benches();
  const strays = existsSync(RECORDS)
    ? readdirSync(RECORDS).filter(
        (file) => file.endsWith('.json') && !known.includes(file.slice(0, -5).split('--')[0]),
      )
    : [];
  if (strays.length > 0)
    throw new Error(`docs/benchmarks/ holds records of no bench:* script: ${strays.join(', ')}`);
  const rows = [
    '| Bench | Figure | Min | Median | Max | Target | Met | Machine | Load (1 min, start → end) | Ran |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const bench of known) {
    const records = readRecords(bench);
    if (records.length === 0) rows.push(`| \`bench:${bench}\` | not recorded yet | | | | | | | | |`);
    for (const record of records) rows.push(...recordRows(bench, record));
  }
  return rows.join('\n');
}

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(START);
const end = doc.indexOf(END);
if (start === -1 || end === -1 || end < start) {
  console.error(`docs/benchmarks.md needs the markers ${START} and ${END}`);
  process.exit(1);
}
const next = `${doc.slice(0, start + START.length)}\n\n${table()}\n\n${doc.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/benchmarks.md: the figures table is stale: run node scripts/gen-bench-table.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(DOC, next);
}
