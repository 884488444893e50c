/**
 * The editor bundle's size budget, in bytes of `libs/editor/dist/ccs-editor.js` gzipped at level
 * 9: stated in libs/editor/README.md ("Delivery"), failed by tests/editor/bundle.test.ts and
 * reported by `npm run bench:editor`. It lives here, inside the benchmarks' TypeScript project
 * (`tsc -b tests/bench` compiles only files under tests/bench).
 */
export const GZIP_BUDGET_BYTES = 46_000;
