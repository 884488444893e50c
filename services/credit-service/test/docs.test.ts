import { loadServedDocs, serveServiceForTests } from '@catalogue/testing';
import { creditService } from '../src/service';

describe('credit-service: API reference at /docs', () => {
  const service = serveServiceForTests(creditService);

  test('when the served document is read, then it has the public price list and health operations only, called on this service', async () => {
    const page = await fetch(`${service.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Credit service</title>');

    const docs = await loadServedDocs(service.url);

    expect(docs.servers).toEqual([{ url: '/' }]);
    expect(docs.operations.sort()).toEqual(
      [
        'GET /public/credit',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
        'GET /docs',
        'GET /docs/openapi.yaml',
        'GET /docs/openapi.json',
      ].sort(),
    );
    expect(docs.danglingRefs).toEqual([]);
  });
});
