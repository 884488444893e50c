// One error shape: a stable code on every error, 415 for a body that is not JSON, and a fixed
// metrics label for requests refused before their route ran.
import { ERROR_CODES } from '@catalogue/http';
import { expectMatchesContract, openApiValidator, REPO_ROOT } from '@catalogue/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { catalogueService } from './helpers';

describe('catalogue-api: error shape', () => {
  const svc = catalogueService();

  test('when an import is sent as a form (curl -d), then 415 unsupported_media_type and nothing is imported', async () => {
    const { eshop, apiToken } = await svc.eshop();

    const res = await fetch(`${svc.url}/api/v2/rest/products`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'id=P1&name[default]=Chair',
    });
    const body: unknown = await res.json();

    expectMatchesContract('POST', '/api/v2/rest/products', res.status, body);
    expect(res.status).toBe(415);
    expect(body).toEqual({ error: 'Send the body as application/json.', code: 'unsupported_media_type' });
    expect(await svc.deps.db('products').where({ eshop_id: eshop.id })).toEqual([]);
  });

  test('when a JSON import has no Content-Type at all, then 415 too', async () => {
    const { apiToken } = await svc.eshop();
    const res = await fetch(`${svc.url}/api/v1/products/bulk-import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': '' },
      body: Buffer.from('[{"id":"P1","name":"Chair"}]'),
    });
    expect(res.status).toBe(415);
  });

  test('when a listing is uploaded as text/plain, then 415 naming the accepted types', async () => {
    const { apiToken } = await svc.eshop();
    const res = await fetch(`${svc.url}/api/v2/rest/listing`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'text/plain' },
      body: 'code,name\nA,B',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: 'Send the body as application/json or text/csv.',
      code: 'unsupported_media_type',
    });
  });

  test('when requests are refused before routing, then metrics label them before_routing, never with a router pattern', async () => {
    await fetch(`${svc.url}/api/v2/rest/products`);
    await fetch(`${svc.url}/api/v1/products/list`, { headers: { Authorization: 'Bearer cat_nope' } });

    const metrics = await (await fetch(`${svc.url}/metrics`)).text();

    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="before_routing",status="401"\} [2-9]/,
    );
    expect(metrics).not.toMatch(/route="[^"]*\(\?:/);
  });

  test('when the codes are listed, then docs/openapi.yaml and the README list exactly the codes of libs/http', () => {
    const codes = Object.keys(ERROR_CODES).sort();
    const document = parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.yaml'), 'utf8')) as {
      components: { schemas: { ErrorCode: { enum: string[]; description: string } } };
    };
    expect([...document.components.schemas.ErrorCode.enum].sort()).toEqual(codes);
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    for (const table of [readme, document.components.schemas.ErrorCode.description]) {
      const listed = [...table.matchAll(/^\s*\| `([a-z_]+)` \| (\d{3}) \|/gm)].map(
        (m) => [m[1]!, Number(m[2])] as const,
      );
      expect(listed.map(([code]) => code).sort()).toEqual(codes);
      for (const [code, status] of listed) {
        expect(ERROR_CODES[code as keyof typeof ERROR_CODES].status).toBe(status);
      }
    }
    expect(openApiValidator().compileAll()).toEqual([]);
  });
});
