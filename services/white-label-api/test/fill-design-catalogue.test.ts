import { catalogueRepository } from '@catalogue/db';
import { bearerCaller, serveServiceForTests } from '@catalogue/testing';
import { catalogueApi } from '../../catalogue-api/src/service';
import { classicDesign } from './design-fixtures';
import { editorService } from './editor-client';

// docs/decisions/0004-catalogue-api-v1-v2-imports.md ("One content per entity"): the catalogue item `product P1` and the white-label entity `product P1` of the same
// eshop share their content, so what the editor fills, the v2 list returns.
describe('white-label-api: fill-design seen through the catalogue API (v2 list)', () => {
  const service = editorService();
  // The catalogue API in the same process, on a queue prefix no worker consumes, read the way an
  // eshop back office does.
  const catalogue = serveServiceForTests(catalogueApi, {
    QUEUE_PREFIX: `${process.env.TEST_QUEUE_PREFIX}-fill-design`,
  });

  test('when a catalogue product with the same id is filled, then the v2 list returns the filled content in every language', async () => {
    const shop = await service.shop({ languages: ['default', 'cs'] });
    const backOffice = bearerCaller(catalogue.url, shop.created.apiToken);
    const imported = await backOffice('POST', '/api/v2/rest/products', [
      { id: 'SHOE-1', name: { default: 'Trail shoe', cs: 'Bota' } },
    ]);
    expect(imported.status).toBe(200);
    // What the generation worker does once it composed the item (none runs in this test).
    await service.deps.db.transaction((trx) =>
      catalogueRepository.markRendered(trx, 'product', shop.id, 'SHOE-1', 'ready'),
    );
    expect((await shop.post('/register-entity', { entity_id: 'SHOE-1', type: 'product' })).status).toBe(201);

    const d = await classicDesign(service.deps.db);
    const filled = await shop.post('/entity/SHOE-1/type/product/design', {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: { default: 'Filled', cs: 'Vyplněno' } } }],
    });
    expect(filled.status).toBe(200);

    const list = await backOffice('GET', '/api/v2/rest/products?lang=all');
    const item = list.body.data.find((p) => p.id === 'SHOE-1');
    expect(item?.content.html).toEqual(filled.body.html);
    expect(item?.content.html.cs).toContain('Vyplněno');
    expect(item?.content.html.default).toContain('Filled');
  });

  test("when another eshop fills its own entity with the same id, then this eshop's catalogue item keeps its content", async () => {
    const owner = await service.shop();
    const other = await service.shop();
    const ownerBackOffice = bearerCaller(catalogue.url, owner.created.apiToken);
    await ownerBackOffice('POST', '/api/v2/rest/products', [{ id: 'SAME', name: { default: 'Owner item' } }]);
    await service.deps.db.transaction((trx) =>
      catalogueRepository.markRendered(trx, 'product', owner.id, 'SAME', 'ready'),
    );
    const d = await classicDesign(service.deps.db);
    const fill = {
      design_id: d.id,
      widget: [{ design_widget_id: d.section, fields: { heading: 'Their text' } }],
    };
    await other.post('/register-entity', { entity_id: 'SAME', type: 'product' });
    expect((await other.post('/entity/SAME/type/product/design', fill)).status).toBe(200);

    const list = await ownerBackOffice('GET', '/api/v2/rest/products?lang=all');
    const item = list.body.data.find((p) => p.id === 'SAME');
    expect(item).toBeDefined();
    expect(JSON.stringify(item)).not.toContain('Their text');
  });
});
