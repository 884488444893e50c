import { eshopsRepository } from '@catalogue/db';
import { WHITE_LABEL_TOKEN_HEADER } from '@catalogue/http';
import { makeEshop, serveServiceForTests } from '@catalogue/testing';
import { whiteLabelApi } from '../src/service';
import { hasValidLicence } from '../src/services/licence.service';

const ORIGIN = 'https://admin.licence.test';
/** What a test eshop answers of its languages (makeEshop's, no main language named). */
const eshopLanguages = { languages: ['default', 'cs', 'en'], default_language: null };

describe('white-label-api: POST /api/v3/white-label/check-license', () => {
  const service = serveServiceForTests(whiteLabelApi);

  const check = (token: string) =>
    fetch(`${service.url}/api/v3/white-label/check-license`, {
      method: 'POST',
      headers: { [WHITE_LABEL_TOKEN_HEADER]: token, Origin: ORIGIN, Accept: 'application/json' },
    });

  test('when the licence runs until a future day, then has_valid_license is true', async () => {
    const shop = await makeEshop(service.deps.db, { origins: [ORIGIN], licenceValidUntil: '2099-01-01' });
    const res = await check(shop.whiteLabelToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { eshop_id: shop.eshop.id, has_valid_license: true, ...eshopLanguages },
    });
  });

  test('when the licence has expired or was never given, then has_valid_license is false', async () => {
    const expired = await makeEshop(service.deps.db, { origins: [ORIGIN], licenceValidUntil: '2020-01-01' });
    const none = await makeEshop(service.deps.db, { origins: [ORIGIN], licenceValidUntil: null });
    expect(await (await check(expired.whiteLabelToken)).json()).toEqual({
      data: { eshop_id: expired.eshop.id, has_valid_license: false, ...eshopLanguages },
    });
    expect(await (await check(none.whiteLabelToken)).json()).toEqual({
      data: { eshop_id: none.eshop.id, has_valid_license: false, ...eshopLanguages },
    });
  });

  test('when an operator extends the licence, then the next check sees it', async () => {
    const shop = await makeEshop(service.deps.db, { origins: [ORIGIN], licenceValidUntil: null });
    await eshopsRepository.update(service.deps.db, shop.eshop.id, { licenceValidUntil: '2099-12-31' });
    expect(await (await check(shop.whiteLabelToken)).json()).toEqual({
      data: { eshop_id: shop.eshop.id, has_valid_license: true, ...eshopLanguages },
    });
  });

  test('when the eshop names its main language, then the check answers it with the active languages', async () => {
    const shop = await makeEshop(service.deps.db, { origins: [ORIGIN], languages: ['cs', 'en', 'de'] });
    await eshopsRepository.update(service.deps.db, shop.eshop.id, { defaultLanguage: 'en' });
    expect(await (await check(shop.whiteLabelToken)).json()).toEqual({
      data: {
        eshop_id: shop.eshop.id,
        has_valid_license: true,
        languages: ['cs', 'en', 'de'],
        default_language: 'en',
      },
    });
  });

  test('when the licence ends today, then it is still valid today and not tomorrow', () => {
    const now = new Date('2026-11-21T23:59:59Z');
    expect(hasValidLicence({ licenceValidUntil: '2026-11-21' }, now)).toBe(true);
    expect(hasValidLicence({ licenceValidUntil: '2026-11-20' }, now)).toBe(false);
  });
});
