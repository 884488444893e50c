// A parameter's name on a page of a language it has no name in: the parameters table shows the
// default name marked with the eshop's fallback code, like every other fallback text, and under
// `omit` the table follows the widget rule (docs/decisions.md, "Parameter names that fall back").
import {
  composeFromEntity,
  designStructure,
  renderAll,
  SEED_DESIGNS,
  type ComposeEntity,
  type FallbackPolicy,
} from '@catalogue/content';
import { TEMPLATES } from './trees';

const LANGS = ['default', 'cs', 'en', 'de'];

/** Weight is named in cs; Membrane in cs and en; Season has no translation at all. */
const entity: ComposeEntity = {
  type: 'product',
  name: { default: 'Trail shoe', cs: 'Trailová bota', en: 'Trail shoe', de: 'Trailschuh' },
  parameters: [
    { name: { default: 'Weight', cs: 'Hmotnost' }, value: ['280 g'] },
    { name: { default: 'Membrane', cs: 'Membrána', en: 'Membrane' }, value: ['GORE-TEX'] },
    { name: 'Season', value: ['All year'] },
  ],
};

function pages(policy: FallbackPolicy) {
  const design = SEED_DESIGNS.find((d) => d.widgets.some((w) => w.widget === 'parameters'))!;
  const tree = composeFromEntity(designStructure(design), TEMPLATES, entity);
  const snippet = {
    type: 'product' as const,
    name: entity.name!,
    parameters: entity.parameters!.map((p) => ({ name: p.name, values: p.value as string[] })),
  };
  return renderAll(tree, snippet, LANGS, policy);
}

/** The table's rows: [name, the name's lang attribute or null]. */
const nameCells = (html: string) =>
  [...html.matchAll(/<th class="ccs-parameters__name"([^>]*)>([^<]*)<\/th>/g)].map(([, attrs, text]) => [
    text,
    /\slang="([^"]+)"/.exec(attrs!)?.[1] ?? null,
  ]);

describe('parameter names that fall back to the default name', () => {
  test('when the policy is fallback, then a name without a translation for the page is the default name marked with the default language, and an own name is not marked', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: 'en' });
    expect(nameCells(out.html.default!)).toEqual([
      ['Weight', null],
      ['Membrane', null],
      ['Season', null],
    ]);
    expect(nameCells(out.html.cs!)).toEqual([
      ['Hmotnost', null],
      ['Membrána', null],
      ['Season', 'en'],
    ]);
    // en is the language default is written in: its default names are its own.
    expect(nameCells(out.html.en!)).toEqual([
      ['Weight', null],
      ['Membrane', null],
      ['Season', null],
    ]);
    expect(nameCells(out.html.de!)).toEqual([
      ['Weight', 'en'],
      ['Membrane', 'en'],
      ['Season', 'en'],
    ]);
    // The marketplace HTML allows no attribute at all (marketplaces strip them): the default name
    // is shown there unmarked, as every fallback text of that output is.
    expect(out.marketplace.cs).toContain('<th>Season</th>');
  });

  test('when the eshop has not said which language default is, then a fallback name is marked und on every other page', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: null });
    expect(nameCells(out.html.en!)).toEqual([
      ['Weight', 'und'],
      ['Membrane', null],
      ['Season', 'und'],
    ]);
    expect(out.languages_complete).toEqual(['default']);
  });

  test('when the policy is omit, then the table is left out of every page where a name or value falls back, and kept where all are its own', () => {
    const out = pages({ mode: 'omit', defaultLanguage: 'en' });
    expect(nameCells(out.html.default!)).toHaveLength(3);
    expect(nameCells(out.html.en!)).toHaveLength(3);
    expect(out.html.cs).not.toContain('ccs-parameters');
    expect(out.html.de).not.toContain('ccs-parameters');
    expect(out.marketplace.cs).not.toContain('ccs-parameters');
  });

  test('when a name falls back, then the rich snippet names the property with the default name, unmarked', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: 'en' });
    expect(out.rich_snippet.json.cs!.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Hmotnost', value: '280 g' },
      { '@type': 'PropertyValue', name: 'Membrána', value: 'GORE-TEX' },
      { '@type': 'PropertyValue', name: 'Season', value: 'All year' },
    ]);
    // Under omit too: the snippet is the product's data, not a widget of the page.
    expect(pages({ mode: 'omit', defaultLanguage: 'en' }).rich_snippet.json.cs).toEqual(
      out.rich_snippet.json.cs,
    );
  });
});
