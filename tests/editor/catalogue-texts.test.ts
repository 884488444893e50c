// The editor shows the API's English catalogue texts in Czech by stable keys; a widget type,
// category or field role added to the catalogue without its Czech text fails here.
import { SEED_WIDGET_CATEGORIES, SEED_WIDGETS } from '@catalogue/content';
import { catalogueCs } from '../../libs/editor/src/messages/catalogue-cs';

describe('the Czech catalogue texts of the editor', () => {
  test('when every widget, category and field role of the catalogue is looked up, then each has a Czech text', () => {
    const keys = [
      ...SEED_WIDGETS.flatMap((w) => [`widget.${w.type}`, `widget.${w.type}.description`]),
      ...SEED_WIDGET_CATEGORIES.map((c) => `category.${c.key}`),
      ...SEED_WIDGETS.flatMap((w) => [...w.field, ...w.item_field].map((f) => `hint.${f.role}`)),
    ];
    expect([...new Set(keys)].filter((k) => !catalogueCs[k])).toEqual([]);
    // Nothing left over for a type, category or role that no longer exists.
    expect(Object.keys(catalogueCs).filter((k) => !keys.includes(k))).toEqual([]);
  });
});
