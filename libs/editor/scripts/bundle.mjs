// Bundles <ccs-editor> (src/index.ts with Lit) into one minified ES module, dist/ccs-editor.js,
// which white-label-api serves at /editor/v1/ccs-editor.js. Type-checking is tsc -b's job
// (tsconfig.json); esbuild only strips the types.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: join(root, 'dist', 'ccs-editor.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox113', 'safari16.4'],
  minify: true,
  legalComments: 'eof',
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
});
