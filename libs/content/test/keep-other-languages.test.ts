import { keepOtherLanguages } from '@catalogue/content';
import { el, section, widget } from './trees';

describe('keepOtherLanguages (a fill written in some languages)', () => {
  it('when the same widget is filled again in cs, then each element keeps the en texts and cs is the new one', () => {
    const before = [section(1, 1, { en: 'Size guide', cs: 'Staré' }, { en: 'Pick one.', default: 'Pick.' })];
    const next = [section(1, 1, { cs: 'Průvodce' }, { cs: 'Vyberte.' })];
    expect(keepOtherLanguages(before, next, new Set(['cs']))[0]!.children.map((e) => e.value)).toEqual([
      {},
      { cs: 'Průvodce', en: 'Size guide' },
      { cs: 'Vyberte.', en: 'Pick one.', default: 'Pick.' },
    ]);
  });

  it('when a written language is left blank in an element, then its old text is not kept', () => {
    const before = [section(1, 1, { cs: 'Staré', en: 'Old' }, {})];
    const next = [section(1, 1, { en: 'New' }, {})];
    expect(keepOtherLanguages(before, next, new Set(['cs', 'en']))[0]!.children[1]!.value).toEqual({
      en: 'New',
    });
  });

  it('when widgets and items are matched, then it is by catalogue widget and occurrence, and new ones get nothing', () => {
    const list = (id: number, titles: Array<Record<string, string>>, widgetId = 3) =>
      widget(id, [el(1, 0, 'ul', {}), ...titles.map((t, i) => el(i + 2, 1, 'h3', t, { class: 'title' }))], {
        widget_id: widgetId,
      });
    const before = [list(1, [{ en: 'One' }, { en: 'Two' }]), list(2, [{ en: 'Other widget' }], 4)];
    const next = [list(1, [{ cs: 'Jedna' }, { cs: 'Dva' }, { cs: 'Tři' }]), list(2, [{ cs: 'Nový' }], 5)];
    const kept = keepOtherLanguages(before, next, new Set(['cs']));
    expect(kept[0]!.children.slice(1).map((e) => e.value)).toEqual([
      { cs: 'Jedna', en: 'One' },
      { cs: 'Dva', en: 'Two' },
      { cs: 'Tři' },
    ]);
    expect(kept[1]!.children[1]!.value).toEqual({ cs: 'Nový' });
    expect(keepOtherLanguages(undefined, next, new Set(['cs']))).toEqual(next);
  });
});
