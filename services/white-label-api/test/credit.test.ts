import { creditsRepository } from '@catalogue/db';
import { makeGenerationJob } from '@catalogue/testing';
import { editorService, EXPIRED, LICENCE_ERROR } from './editor-client';

describe('white-label-api: GET /credit', () => {
  const service = editorService();

  test('when the eshop has a balance and credits held for a running job, then remaining is balance minus reserved', async () => {
    const shop = await service.shop({ credits: 100 });
    // What starting a generation does.
    const jobId = await makeGenerationJob(service.deps.db, shop.id);
    await service.deps.db.transaction((trx) => creditsRepository.reserve(trx, shop.id, jobId, 30));
    const res = await shop.get('/credit');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { remaining: 70 } });
    expect(await creditsRepository.getAccount(service.deps.db, shop.id)).toMatchObject({
      balance: 100,
      reserved: 30,
    });
  });

  test('when the eshop has no credit account, then remaining is 0', async () => {
    const shop = await service.shop({ credits: 0 });
    expect((await shop.get('/credit')).body).toEqual({ data: { remaining: 0 } });
  });

  test('when another eshop has credits, then they are not counted', async () => {
    await service.shop({ credits: 500 });
    const shop = await service.shop({ credits: 7 });
    expect((await shop.get('/credit')).body).toEqual({ data: { remaining: 7 } });
  });

  test('when the licence is not valid, then 403', async () => {
    const shop = await service.shop({ ...EXPIRED, credits: 10 });
    const res = await shop.get('/credit');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(LICENCE_ERROR);
  });
});
