import { readFile } from 'node:fs/promises';
import { publicAssetsRouter } from '@catalogue/http';

/**
 * The editor's bundle (`npm run build` writes it with esbuild), served to host pages on any
 * origin: `<script type="module" src="…/editor/v1/ccs-editor.js">`. The path's `v1` is the
 * element's public API version. Brotli or gzip (compressed once per process); the stable URL
 * is revalidated by ETag and names the content-addressed one (`Link: rel="canonical"`),
 * `/editor/v1/ccs-editor.<content hash>.js`, cached for a year as immutable.
 */
export function editorAssetsRouter() {
  return publicAssetsRouter([
    {
      path: '/editor/v1/ccs-editor.js',
      hashedPath: '/editor/v1/ccs-editor.:hash.js',
      contentType: 'text/javascript; charset=utf-8',
      load: () => readFile(require.resolve('@catalogue/editor/dist/ccs-editor.js')),
    },
  ]);
}
