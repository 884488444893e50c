// What a generation writes from the material planned into its context (the catalogue's images,
// the name, the descriptions) and what it charges for: only widgets that received text.
import type { ContentWidget } from '@catalogue/content';
import { catalogueRepository } from '@catalogue/db';
import { runGeneration } from '../src/services/generate.service';
import {
  contentOf,
  createJob,
  deps,
  nextEntity,
  payload,
  reload,
  settlementsOf,
  shop,
  useGenerateDeps,
  widgetPrice,
} from './generate-fixtures';

useGenerateDeps('material');

const IMAGES = [1, 2, 3, 4, 5, 6].map((n) => `https://cdn.test/ridge-${n}.jpg`);

const hasGallery = (tree: ContentWidget[]) => tree.some((w) => w.html.includes('ccs-gallery'));

describe('runGeneration: material and charge', () => {
  test("when a widget receives only the catalogue's own images (a gallery), then it is placed but not charged", async () => {
    const eshopId = await shop();
    const { job } = await createJob({ eshopId, lang: 'cs', context: { images: IMAGES } });

    await runGeneration(deps, payload(job));

    const done = await reload(job);
    expect(done.status).toBe('done');
    const tree = (await contentOf(job))!.tree as ContentWidget[];
    expect(hasGallery(tree)).toBe(true);
    // The section and the benefits got text; the image widget (the section took every sentence
    // and the name) and the gallery hold the catalogue's images only: placed, not charged.
    expect(done.widgetsCreated).toBe(4);
    const charged = 2 * (await widgetPrice());
    expect(done.chargedCost).toBe(charged);
    expect(await settlementsOf(job.id)).toEqual([
      { eshop_id: eshopId, job_id: job.id, actual_cost: charged },
    ]);
  });

  test('when generated widgets hold images, then each image carries the name as its alternative text', async () => {
    const eshopId = await shop();
    const { job } = await createJob({
      eshopId,
      lang: 'cs',
      design: 'product-story',
      context: { name: 'Veltra Ridge 2 "WP"', images: IMAGES },
    });

    await runGeneration(deps, payload(job));

    const html = (await contentOf(job))!.html.cs ?? '';
    const images = html.match(/<img\b[^>]*>/g) ?? [];
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) expect(img).toContain('alt="Veltra Ridge 2 &quot;WP&quot;"');
    expect(html).not.toContain('alt=""');
  });

  test('when the description has a bullet list, then the content keeps it as a list', async () => {
    const eshopId = await shop();
    const { job } = await createJob({
      eshopId,
      lang: 'cs',
      context: {
        short_description: 'Lehká bota do terénu.',
        old_description: '<p>Drží i na mokré skále.</p><ul><li>membrána</li><li>zpevněná špička</li></ul>',
      },
    });

    await runGeneration(deps, payload(job));

    const html = (await contentOf(job))!.html.cs ?? '';
    expect(html).toMatch(/<ul>\s*<li>membrána<\/li>\s*<li>zpevněná špička<\/li>\s*<\/ul>/);
    expect(html).not.toContain('<p>membrána</p>');
  });

  test('when the context was planned without images (a row written before), then the catalogue item is read for them', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    await deps.db.transaction((trx) =>
      catalogueRepository.upsert(trx, 'product', eshopId, [
        {
          externalId: entityId,
          isVisible: true,
          status: 'ready',
          fields: { name: { cs: 'Bota' }, images: ['https://cdn.test/legacy.jpg'] },
        },
      ]),
    );
    const { job } = await createJob({ eshopId, entityId, lang: 'cs' });

    await runGeneration(deps, payload(job));

    expect((await contentOf(job))!.html.cs).toContain('src="https://cdn.test/legacy.jpg"');
  });

  test('when the planned context holds images, then those are used and not the ones the catalogue holds now', async () => {
    const eshopId = await shop();
    const entityId = nextEntity();
    await deps.db.transaction((trx) =>
      catalogueRepository.upsert(trx, 'product', eshopId, [
        {
          externalId: entityId,
          isVisible: true,
          status: 'ready',
          fields: { name: { cs: 'Bota' }, images: ['https://cdn.test/now.jpg'] },
        },
      ]),
    );
    const { job } = await createJob({
      eshopId,
      entityId,
      lang: 'cs',
      context: { images: ['https://cdn.test/planned.jpg'] },
    });

    await runGeneration(deps, payload(job));

    const html = (await contentOf(job))!.html.cs ?? '';
    expect(html).toContain('src="https://cdn.test/planned.jpg"');
    expect(html).not.toContain('now.jpg');
  });
});
