// The white-label API keeps tokens' eshops and eshops' allowed origins in memory (libs/http
// auth-cache.ts); a change to either made through the admin service reaches it over Redis
// pub/sub after the commit.
import { adminService, authChangePublisher, type AuthChangePublisher } from '@catalogue/admin';
import { eventually, testConfig } from '@catalogue/testing';
import { editorService, ORIGIN } from './editor-client';

describe('white-label-api: the auth cache', () => {
  const service = editorService();
  let changes: AuthChangePublisher;
  const admin = () => adminService(service.deps.db, { authChanged: changes.authChanged });

  beforeAll(async () => {
    changes = authChangePublisher(testConfig(), (text) => {
      throw new Error(text);
    });
    const cacheState = async (): Promise<string | undefined> =>
      ((await (await fetch(`${service.url}/readyz`)).json()) as { checks: Record<string, string> }).checks
        .auth_cache;
    await eventually(async () => expect(await cacheState()).toBe('ok'), 5_000);
  });
  afterAll(() => changes.close());

  test('when an allowed origin is removed, then the next requests from it are refused', async () => {
    const shop = await service.shop();
    expect((await shop.get('/widget')).status).toBe(200);

    await admin().removeOrigin(shop.id, ORIGIN);

    await eventually(async () => expect((await shop.get('/widget')).status).toBe(403), 1_000);
  });

  test("when an eshop's licence ends, then the next requests are refused as unlicensed", async () => {
    const shop = await service.shop();
    expect((await shop.get('/widget')).status).toBe(200);

    await admin().updateEshop(shop.id, { licenceValidUntil: '2020-01-01' });

    await eventually(async () => {
      const res = await shop.get('/widget');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('licence_invalid');
    }, 1_000);
  });
});
