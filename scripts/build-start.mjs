// @ts-check
// `npm start`'s build (and, with --admin, `npm run admin`'s): what the local stack runs, fast, with progress. Each package the services
// and the launcher load is transpiled by esbuild into its dist/ (TypeScript's types stripped, one
// file each, as `tsc -b` would emit them: CommonJS, the same paths); the editor is bundled as
// `npm run build:editor` does. Type-checking is not repeated here: `npm test`, `npm run build`
// and CI run `tsc -b`, which rebuilds these outputs whenever its own build information says so.
// Why and what it costs on a fresh clone: docs/decisions/0085-npm-start-for-a-newcomer.md.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * `--admin`: what `npm run admin` runs (libs/admin and the libraries it loads), silently: the
 * command's own output is what its caller reads.
 */
const ADMIN_ONLY = process.argv.includes('--admin');
/** Where the dist/ folders go: the packages themselves, or (a test's check) another folder. */
const OUT = process.env.BUILD_START_OUT ?? ROOT;

/**
 * What `npm start` runs: the four services and the launcher (libs/admin), then every package of
 * ours they depend on, found through their package.json files (the editor is bundled, below), in
 * dependency order.
 */
function packagesToBuild() {
  const roots = ADMIN_ONLY
    ? ['libs/admin']
    : [...readdirSync(join(ROOT, 'services')).map((name) => `services/${name}`), 'libs/admin'];
  const ordered = [];
  const visit = (pkg) => {
    if (ordered.includes(pkg)) return;
    const manifest = JSON.parse(readFileSync(join(ROOT, pkg, 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      if (name.startsWith('@catalogue/') && name !== '@catalogue/editor') visit(`libs/${name.slice(11)}`);
    }
    ordered.push(pkg);
  };
  roots.forEach(visit);
  return ordered;
}
const PACKAGES = packagesToBuild();

/** The TypeScript sources of a package (declaration files emit nothing). */
function sources(pkg) {
  const src = join(ROOT, pkg, 'src');
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(src, file));
}

const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const total = PACKAGES.length + 1;

for (const [i, pkg] of PACKAGES.entries()) {
  const at = performance.now();
  const entryPoints = sources(pkg);
  await build({
    entryPoints,
    outdir: join(OUT, pkg, 'dist'),
    outbase: join(ROOT, pkg, 'src'),
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    tsconfig: join(ROOT, pkg, 'tsconfig.json'),
    logLevel: 'warning',
  });
  if (!ADMIN_ONLY)
    process.stdout.write(`[${i + 1}/${total}] ${pkg}: ${entryPoints.length} files, ${seconds(at)} s\n`);
}

if (OUT !== ROOT || ADMIN_ONLY) process.exit(0);
const at = performance.now();
await import(join(ROOT, 'libs/editor/scripts/bundle.mjs'));
if (!existsSync(join(ROOT, 'libs/editor/dist/ccs-editor.js')))
  throw new Error('the editor bundle was not written');
process.stdout.write(`[${total}/${total}] libs/editor: bundled, ${seconds(at)} s\n`);
process.stdout.write(
  `Built what npm start runs in ${seconds(started)} s (types are checked by npm test and npm run build).\n`,
);
