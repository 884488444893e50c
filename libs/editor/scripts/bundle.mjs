// Bundles <ccs-editor> (src/index.ts with Lit) into one minified ES module, dist/ccs-editor.js,
// which white-label-api serves at /editor/v1/ccs-editor.js (and <ccs-batch-progress> into
// dist/ccs-batch-progress.js, served at /editor/v1/ccs-batch-progress.js). Type-checking is
// tsc -b's job (tsconfig.json); esbuild only strips the types.
import { build } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundleOptions = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox113', 'safari16.4'],
  minify: true,
  legalComments: 'eof',
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
};
await build({
  ...bundleOptions,
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: join(root, 'dist', 'ccs-editor.js'),
});
// <ccs-batch-progress> (a bulk generation's progress) in a module of its own: a host page that
// shows it loads it beside the editor or alone, and the editor's bundle stays within its budget.
await build({
  ...bundleOptions,
  entryPoints: [join(root, 'src', 'batch-entry.ts')],
  outfile: join(root, 'dist', 'ccs-batch-progress.js'),
});

// The texts of the UI languages read on demand (src/i18n-languages.ts), as JSON beside the
// bundle: `{messages, catalogue}` (src/messages/<lang>.ts and catalogue-<lang>.ts), which
// white-label-api serves at /editor/v1/messages/<lang>.json.
const { FETCHED_LANGUAGES } = await importTs(join(root, 'src', 'i18n-languages.ts'));
await mkdir(join(root, 'dist', 'messages'), { recursive: true });
for (const lang of FETCHED_LANGUAGES) {
  const messages = (await importTs(join(root, 'src', 'messages', `${lang}.ts`)))[lang];
  const named = `catalogue${lang[0].toUpperCase()}${lang.slice(1)}`;
  const catalogue = (await importTs(join(root, 'src', 'messages', `catalogue-${lang}.ts`)))[named];
  await writeFile(
    join(root, 'dist', 'messages', `${lang}.json`),
    `${JSON.stringify({ messages, catalogue })}\n`,
  );
}

/** A TypeScript module of plain data, bundled by esbuild and imported from memory. */
async function importTs(file) {
  const out = await build({
    entryPoints: [file],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'warning',
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}
