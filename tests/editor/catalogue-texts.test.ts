// The editor shows the API's English catalogue texts in every UI language by stable keys; a
// widget type, category or field role added to the catalogue without its text fails here.
import { SEED_WIDGET_CATEGORIES, SEED_WIDGETS } from '@catalogue/content';
import { catalogueCs } from '../../libs/editor/src/messages/catalogue-cs';
import { catalogueDe } from '../../libs/editor/src/messages/catalogue-de';
import { catalogueHu } from '../../libs/editor/src/messages/catalogue-hu';
import { cataloguePl } from '../../libs/editor/src/messages/catalogue-pl';
import { catalogueSk } from '../../libs/editor/src/messages/catalogue-sk';
import { catalogueUk } from '../../libs/editor/src/messages/catalogue-uk';

const LANGUAGES: Record<string, Record<string, string>> = {
  cs: catalogueCs,
  sk: catalogueSk,
  de: catalogueDe,
  pl: cataloguePl,
  hu: catalogueHu,
  uk: catalogueUk,
};

describe('the catalogue texts of the editor', () => {
  test.each(Object.keys(LANGUAGES))(
    'when every widget, category and field role of the catalogue is looked up in %s, then each has a text',
    (lang) => {
      const texts = LANGUAGES[lang]!;
      const keys = [
        ...SEED_WIDGETS.flatMap((w) => [`widget.${w.type}`, `widget.${w.type}.description`]),
        ...SEED_WIDGET_CATEGORIES.map((c) => `category.${c.key}`),
        ...SEED_WIDGETS.flatMap((w) => [...w.field, ...w.item_field].map((f) => `hint.${f.role}`)),
      ];
      expect([...new Set(keys)].filter((k) => !texts[k])).toEqual([]);
      // Nothing left over for a type, category or role that no longer exists.
      expect(Object.keys(texts).filter((k) => !keys.includes(k))).toEqual([]);
    },
  );
});
