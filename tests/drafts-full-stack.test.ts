// Drafts with the real workers (docs/decisions/0080-drafts-and-publishing.md, "Drafts and publishing"): in an eshop whose
// edits wait as drafts, a generation job writes the draft, not the lists; a re-import refreshes
// the published content while the draft keeps the owner's tree; publishing serves the draft.
import { adminService } from '@catalogue/admin';
import { eventually, makeEshop } from '@catalogue/testing';

import { shopCallers, useFullStack } from './full-stack';

const PREFIX = `${process.env.TEST_QUEUE_PREFIX}-drafts`;
const ORIGIN = 'https://admin.drafts.test';

describe('drafts with the generation worker and imports', () => {
  const { wl, catalogue } = useFullStack(PREFIX);

  async function shop() {
    const made = await makeEshop(wl.deps.db, { origins: [ORIGIN], languages: ['default'], credits: 500 });
    const { host, backOffice } = shopCallers({ wl: wl.url, catalogue: catalogue.url }, made, ORIGIN);
    return { id: made.eshop.id, host, backOffice };
  }

  const listedHtml = async (backOffice: Awaited<ReturnType<typeof shop>>['backOffice']) =>
    ((await backOffice('GET', '/api/v2/rest/products?lang=all')).body.data[0]?.content.html.default ??
      '') as string;

  test('when a generation runs and the item is re-imported in draft mode, then the lists change only by the import until the draft is published', async () => {
    const { id, host, backOffice } = await shop();
    const imported = (name: string) =>
      backOffice('POST', '/api/v2/rest/products', [
        { id: 'P1', name: { default: name }, description: { default: `<p>${name} grips wet rock.</p>` } },
      ]);
    expect((await imported('Trail shoe')).status).toBe(200);
    await eventually(
      async () => expect(await listedHtml(backOffice)).toContain('Trail shoe grips wet rock'),
      20_000,
    );
    const composed = await listedHtml(backOffice);

    await adminService(wl.deps.db).updateEshop(id, { publishMode: 'draft' });
    expect(
      (await host('POST', '/register-entity', { entity_id: 'P1', type: 'product', title: 'Trail shoe' }))
        .status,
    ).toBe(201);
    const designs = (await host('GET', '/design?type=product')).body.data;
    const started = await host('POST', '/content/P1/type/product/generate', {
      design_id: designs.find((d) => d.category === 'product')!.id,
      lang: 'default',
      remove_exist_widget: true,
      short_description: 'Lightweight and quick to dry after every river crossing.',
    });
    expect(started.status).toBe(200);
    await eventually(async () => {
      const job = (await host('GET', `/generate/${started.body.data.id}`)).body.data;
      expect(job.status).toBe('done');
    }, 30_000);

    // The job wrote the draft: a generation revision marked draft; the list is as composed.
    const newest = (await host('GET', '/content/P1/type/product/revisions')).body.data[0]!;
    expect(newest).toMatchObject({ source: 'generation', draft: true, generation_id: started.body.data.id });
    expect(await listedHtml(backOffice)).toBe(composed);
    const draft = (await host('GET', '/content/P1/type/product/draft')).body.data;
    expect(draft.has_draft).toBe(true);
    expect(draft.html.default).toContain('quick to dry');
    const draftTree = (await host('GET', '/content/P1/type/product')).body;

    // A re-import recomposes the published content (it was composed); the draft stays as it was.
    expect((await imported('Trail runner')).status).toBe(200);
    await eventually(
      async () => expect(await listedHtml(backOffice)).toContain('Trail runner grips wet rock'),
      20_000,
    );
    expect((await host('GET', '/content/P1/type/product')).body).toEqual(draftTree);
    expect((await host('GET', '/content/P1/type/product/draft')).body.data.has_draft).toBe(true);

    // Publishing serves the generated content, rendered with the item's data as it is now.
    const published = await host('POST', '/content/P1/type/product/publish');
    expect(published.status).toBe(200);
    const served = await listedHtml(backOffice);
    expect(served).toContain('quick to dry');
    expect(served).toBe((await host('GET', '/entity/P1/type/product/html')).body.html.default);
    expect((await host('GET', '/content/P1/type/product/draft')).body.data.has_draft).toBe(false);
  }, 120_000);
});
