// How the editor's bundle reaches a host page: compressed (brotli, else gzip), under a
// content-addressed URL cached for a year as immutable, and under the stable URL a host
// embeds (revalidated by ETag, naming the hashed one). The size budget is the README's
// ("Delivery" in libs/editor/README.md): over it, this test fails.
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { contentHash } from '@catalogue/http';
import { expectMatchesContract, serveServiceForTests } from '@catalogue/testing';
import { whiteLabelApi } from '../../services/white-label-api/src/service';
import { GZIP_BUDGET_BYTES as GZIP_BUDGET } from '../bench/editor-budget';

const BUNDLE = join(__dirname, '..', '..', 'libs', 'editor', 'dist', 'ccs-editor.js');

function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: Buffer; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks), headers: res.headers }),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

const service = serveServiceForTests(whiteLabelApi);

describe('the editor bundle as a host page gets it', () => {
  const bundle = existsSync(BUNDLE) ? readFileSync(BUNDLE) : undefined;

  test('when the bundle is built, then it is within the gzip budget', () => {
    if (!bundle) throw new Error(`no ${BUNDLE}: run 'npm run build:editor'`);
    const gzipped = gzipSync(bundle, { level: zlib.Z_BEST_COMPRESSION }).length;
    process.stdout.write(
      `ccs-editor.js: ${bundle.length} bytes, ${gzipped} gzipped (budget ${GZIP_BUDGET})\n`,
    );
    expect(gzipped).toBeLessThanOrEqual(GZIP_BUDGET);
  });

  test('when a browser asks for the stable URL, then it gets brotli with Vary, an ETag and the hashed URL', async () => {
    const res = await rawGet(`${service.url}/editor/v1/ccs-editor.js`, {
      Origin: 'https://admin.shop.test',
      'Accept-Encoding': 'gzip, deflate, br, zstd',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const hash = contentHash(bundle!);
    expect(res.headers.etag).toBe(`"${hash}-br"`);
    expect(res.headers.link).toBe(`</editor/v1/ccs-editor.${hash}.js>; rel="canonical"`);
    expect(brotliDecompressSync(res.bytes).equals(bundle!)).toBe(true);
    // On the wire: about a quarter of the bytes.
    expect(res.bytes.length).toBeLessThan(bundle!.length / 3);
    process.stdout.write(`on the wire: ${res.bytes.length} bytes brotli\n`);
  });

  test('when the hashed URL is asked for, then it is immutable for a year and matches the contract', async () => {
    const hash = contentHash(bundle!);
    const path = `/editor/v1/ccs-editor.${hash}.js`;
    const res = await fetch(`${service.url}${path}`, { headers: { Origin: 'https://admin.shop.test' } });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(text).toBe(bundle!.toString('utf8'));
    expectMatchesContract('GET', path, res.status, text, res.headers.get('content-type'));
    const again = await rawGet(`${service.url}${path}`, {
      'Accept-Encoding': 'br',
      'If-None-Match': res.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
  });
});
