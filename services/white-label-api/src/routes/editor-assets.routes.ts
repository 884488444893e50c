import { readFile } from 'node:fs/promises';
import { publicAssetsRouter } from '@catalogue/http';

/**
 * The editor's bundle (`npm run build` writes it with esbuild), served to host pages on any
 * origin: `<script type="module" src="…/editor/v1/ccs-editor.js">`. The path's `v1` is the
 * element's public API version; the bytes are revalidated by ETag, or cached for a year when
 * the URL carries `?v=<content hash>`.
 */
export function editorAssetsRouter() {
  return publicAssetsRouter([
    {
      path: '/editor/v1/ccs-editor.js',
      contentType: 'text/javascript; charset=utf-8',
      load: () => readFile(require.resolve('@catalogue/editor/dist/ccs-editor.js')),
    },
  ]);
}
