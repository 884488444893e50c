import { loadServedDocs, serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../src/service';

describe('catalogue-api: API reference at /docs', () => {
  const service = serveServiceForTests(catalogueApi);

  test('when the served document is read, then it has the v1/v2 and health operations only, called on this service', async () => {
    const docs = await loadServedDocs(service.url);

    // "Try it out" calls the host that served the page, whatever ingress is in front.
    expect(docs.servers).toEqual([{ url: '/' }]);
    expect(docs.operations).toEqual(
      expect.arrayContaining([
        'GET /api/v2/rest/whoami',
        'POST /api/v1/products/bulk-import',
        'GET /api/v2/rest/products',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
        'GET /docs',
      ]),
    );
    // Storefronts load the content stylesheet from either API.
    expect(docs.operations).toContain('GET /content/v1/ccs-content.css');
    const foreign = docs.operations.filter(
      (op) => !/^\w+ \/(api\/v[12]\/|content\/v1\/|healthz|readyz|metrics|docs)/.test(op),
    );
    expect(foreign).toEqual([]);
    expect(docs.operations).not.toContain('POST /api/v3/white-label/check-license');
    expect(docs.danglingRefs).toEqual([]);
  });
});
