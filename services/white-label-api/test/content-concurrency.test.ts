import type { ContentWidget } from '@catalogue/content';
import { contentService, elementIds } from './content-helpers';

describe('white-label-api: concurrent content edits', () => {
  const svc = contentService();

  test('when several widgets are added at once to an entity without content yet, then every one is kept with its own ids', async () => {
    const shop = await svc.shop();
    await shop.register('PAGE-1', 'page');
    const section = await svc.widgetOf('section');
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        shop.call('POST', '/content/PAGE-1/type/page', { widget_id: section.id }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const tree = (await shop.stored('PAGE-1', 'page'))?.tree as ContentWidget[];
    expect(tree.map((w) => w.id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    const ids = elementIds(tree);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
