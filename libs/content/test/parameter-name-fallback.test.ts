// A parameter's name and values on a page of any language: the specification's parameters are
// language-neutral (one string each, "no multilingual support"), so the parameters table is the
// page's own in every language: never marked as another language's, never left out under
// `omit`, and it never makes a page incomplete; a name translation the import gave is shown on
// its language's page (docs/decisions/0073-exact-at-the-contract-content-without.md, "Parameters are language-neutral").
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

describe('parameters are language-neutral', () => {
  test('when the policy is fallback, then a name without a translation for the page is shown unmarked, and a translation is shown on its page', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: 'en' });
    expect(nameCells(out.html.default!)).toEqual([
      ['Weight', null],
      ['Membrane', null],
      ['Season', null],
    ]);
    expect(nameCells(out.html.cs!)).toEqual([
      ['Hmotnost', null],
      ['Membrána', null],
      ['Season', null],
    ]);
    expect(nameCells(out.html.de!)).toEqual([
      ['Weight', null],
      ['Membrane', null],
      ['Season', null],
    ]);
    expect(out.html.de).not.toMatch(/<t[hd][^>]*\slang=/);
    expect(out.marketplace.cs).toContain('<th>Season</th>');
  });

  test('when the eshop has not said which language default is, then no parameter cell is marked und', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: null });
    for (const lang of LANGS) expect(out.html[lang]).not.toMatch(/<t[hd][^>]*\slang=/);
    expect(nameCells(out.html.en!)).toEqual([
      ['Weight', null],
      ['Membrane', null],
      ['Season', null],
    ]);
  });

  test('when every prose text exists in a language, then parameters without translations do not make that page incomplete', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: null });
    // The tree's only prose is the product name (default, cs, en, de): every page is complete.
    expect(out.languages_complete).toEqual(LANGS);
  });

  test('when the policy is omit, then the table stays on every page', () => {
    const out = pages({ mode: 'omit', defaultLanguage: 'en' });
    for (const lang of LANGS) expect(nameCells(out.html[lang]!)).toHaveLength(3);
    expect(out.marketplace.cs).toContain('<th>Season</th>');
  });

  test('when a name has no translation, then the rich snippet names the property with the one name', () => {
    const out = pages({ mode: 'fallback', defaultLanguage: 'en' });
    expect(out.rich_snippet.json.cs!.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Hmotnost', value: '280 g' },
      { '@type': 'PropertyValue', name: 'Membrána', value: 'GORE-TEX' },
      { '@type': 'PropertyValue', name: 'Season', value: 'All year' },
    ]);
    expect(pages({ mode: 'omit', defaultLanguage: 'en' }).rich_snippet.json.cs).toEqual(
      out.rich_snippet.json.cs,
    );
  });
});
