// GET/PUT /api/v2/rest/credit-alert: the balance below which the eshop hears `credits.low`
// (settlement side: services/credit-service/test/credit-alert.test.ts).
import { creditsRepository } from '@catalogue/db';
import { catalogueService } from './helpers';

describe('catalogue-api: the credit alert', () => {
  const svc = catalogueService();

  test('when an eshop sets its level, then it reads it back and another eshop keeps none; null turns it off', async () => {
    const shop = await svc.eshop();
    const other = await svc.eshop();
    expect((await shop.api.get('/api/v2/rest/credit-alert')).body).toEqual({
      data: { low_balance_threshold: null },
    });

    const set = await shop.api.put('/api/v2/rest/credit-alert', { low_balance_threshold: 100 });

    expect(set).toMatchObject({ status: 200, body: { data: { low_balance_threshold: 100 } } });
    expect(await creditsRepository.lowBalanceThreshold(svc.deps.db, shop.eshop.id)).toBe(100);
    expect((await other.api.get('/api/v2/rest/credit-alert')).body).toEqual({
      data: { low_balance_threshold: null },
    });
    await shop.api.put('/api/v2/rest/credit-alert', { low_balance_threshold: null });
    expect(await creditsRepository.lowBalanceThreshold(svc.deps.db, shop.eshop.id)).toBeNull();
  });

  test.each([
    [{}],
    [{ low_balance_threshold: -1 }],
    [{ low_balance_threshold: '100' }],
    [{ low_balance_threshold: 1.5 }],
    [[]],
  ])('when the body is %j, then 422 and nothing changes', async (body) => {
    const shop = await svc.eshop();
    await shop.api.put('/api/v2/rest/credit-alert', { low_balance_threshold: 7 });

    const res = await shop.api.put('/api/v2/rest/credit-alert', body);

    expect(res.status).toBe(422);
    expect(await creditsRepository.lowBalanceThreshold(svc.deps.db, shop.eshop.id)).toBe(7);
  });
});
