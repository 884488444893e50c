// The white-label API keeps tokens' eshops and eshops' allowed origins in memory (libs/http
// auth-cache.ts); a change to either reaches it through NOTIFY at commit.
import { eshopsRepository, originsRepository } from '@catalogue/db';
import { eventually } from '@catalogue/testing';
import { editorService, ORIGIN } from './editor-client';

describe('white-label-api: the auth cache', () => {
  const service = editorService();

  test('when an allowed origin is removed, then the next requests from it are refused', async () => {
    const shop = await service.shop();
    expect((await shop.get('/widget')).status).toBe(200);

    await originsRepository.remove(service.deps.db, shop.id, ORIGIN);

    await eventually(async () => expect((await shop.get('/widget')).status).toBe(403), 1_000);
  });

  test("when an eshop's licence ends, then the next requests are refused as unlicensed", async () => {
    const shop = await service.shop();
    expect((await shop.get('/widget')).status).toBe(200);

    await eshopsRepository.update(service.deps.db, shop.id, { licenceValidUntil: '2020-01-01' });

    await eventually(async () => {
      const res = await shop.get('/widget');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('licence_invalid');
    }, 1_000);
  });
});
